import { Inject, Injectable, type Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { AUTH_CONFIG } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { AUTH_BODY_SCHEMA, type AuthBodySchema } from './auth-body-schema.js';
import { mountedControllers, routeHandlersOf } from './route-handlers.js';

interface BuiltSchema {
  schema: Type<object>;
  fields: ReadonlySet<string>;
}

/**
 * The request schemas of this module's routes, built from its configuration once, at startup, for
 * every body a mounted handler takes (so that a wrong `@SvcInput()` column stops the start, not a
 * request).
 */
@Injectable()
export class AuthBodySchemas {
  private readonly built = new Map<AuthBodySchema, BuiltSchema>();

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    modules: ModulesContainer,
  ) {
    // The controllers are known once the modules are scanned, before any is instantiated.
    for (const { handler } of routeHandlersOf(mountedControllers(modules))) {
      const body = Reflect.getMetadata(AUTH_BODY_SCHEMA, handler) as AuthBodySchema | undefined;
      if (body) this.entryOf(body);
    }
  }

  /** The class-validator class of `body` under this configuration. */
  schemaOf(body: AuthBodySchema): Type<object> {
    return this.entryOf(body).schema;
  }

  /** The field names of `body`: every other key of a body is refused. */
  fieldsOf(body: AuthBodySchema): ReadonlySet<string> {
    return this.entryOf(body).fields;
  }

  private entryOf(body: AuthBodySchema): BuiltSchema {
    let entry = this.built.get(body);
    if (!entry) {
      const schema = body.build(this.config);
      entry = { schema, fields: new Set(getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false).map((rule) => rule.propertyName)) };
      this.built.set(body, entry);
    }
    return entry;
  }
}
