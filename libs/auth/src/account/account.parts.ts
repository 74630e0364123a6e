import type { Provider, Type } from '@nestjs/common';
import { AccountDeletionController } from './account-deletion.controller.js';

/** What every module has, whatever the credential and the login methods: the signed-in user's own account routes (DELETE /me). */
export const accountParts: { controllers: Type[]; providers: Provider[] } = {
  controllers: [AccountDeletionController],
  providers: [],
};
