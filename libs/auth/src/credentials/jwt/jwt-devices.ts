import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CredentialDevices, Device } from '../credential-devices.js';
import { RefreshFamilyStore } from './refresh-family-store.js';
import { RefreshTokenStore } from './refresh-token-store.js';

/**
 * The jwt credential's devices: the user's live refresh families, one per login (docs/guides/devices.md).
 * Ending one revokes the family, its refresh tokens and with them its access tokens, which the
 * liveness check refuses at their next request.
 */
@Injectable()
export class JwtDevices implements CredentialDevices {
  constructor(
    private readonly families: RefreshFamilyStore,
    private readonly refreshTokens: RefreshTokenStore,
  ) {}

  async listOfUser(manager: EntityManager, userId: string): Promise<Device[]> {
    const families = await this.families.findLiveOfUser(manager, userId);
    return families.map((family) => ({ id: family.id, createdAt: family.createdAt, lastUsedAt: family.lastUsedAt, userAgent: family.userAgent }));
  }

  async revokeOfUser(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    const [family] = await this.families.findLiveOfUser(manager, userId, id);
    // A live family has a usable token: of two concurrent revocations, only one revokes any.
    return family !== undefined && (await this.refreshTokens.revokeFamily(manager, id)) > 0;
  }
}
