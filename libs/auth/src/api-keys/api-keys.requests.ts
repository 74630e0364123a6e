import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PERMISSION } from '../config/authorization-policy.js';
import type { AuthBodySchema } from '../http/auth-body-schema.js';

/** Longest name of a key. */
export const MAX_API_KEY_NAME_LENGTH = 64;
/** Most scopes one key carries. */
const MAX_SCOPES = 64;
/** Longest lifetime a key can be given, in days. */
const MAX_EXPIRY_DAYS = 365;

class ApiKeyCreationRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_API_KEY_NAME_LENGTH)
  name: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SCOPES)
  @IsString({ each: true })
  @Matches(PERMISSION, { each: true, message: 'each scope must be a permission, <resource>:<action> or <resource>:*' })
  scopes?: string[];

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_EXPIRY_DAYS)
  expiresInDays?: number;
}

/** POST /api-keys: `{ name, scopes?, expiresInDays? }` (docs/guides/machine-access.md). */
export const apiKeyCreationBody: AuthBodySchema = { name: 'SvcApiKeyCreationRequest', secrets: [], build: () => ApiKeyCreationRequest };
