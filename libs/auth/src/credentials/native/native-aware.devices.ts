import type { EntityManager } from 'typeorm';
import type { CredentialDevices, Device } from '../credential-devices.js';

/**
 * The session module's devices with native clients on (docs/guides/devices.md): the live sessions
 * and the live native refresh families, newest first; either can be ended.
 */
export class NativeAwareDevices implements CredentialDevices {
  constructor(
    private readonly sessions: CredentialDevices,
    private readonly families: CredentialDevices,
  ) {}

  async listOfUser(manager: EntityManager, userId: string): Promise<Device[]> {
    const devices = [...(await this.sessions.listOfUser(manager, userId)), ...(await this.families.listOfUser(manager, userId))];
    return devices.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  }

  async revokeOfUser(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    return (await this.sessions.revokeOfUser(manager, userId, id)) || this.families.revokeOfUser(manager, userId, id);
  }
}
