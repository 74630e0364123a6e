import { OnEvent } from '@nestjs/event-emitter';
import type { AuthEventName } from './auth-events.js';

/**
 * Marks an observer method. Like `@OnEvent`, but errors reach the library, which logs them to the
 * `svc` logger and keeps them away from the response and from the other observers.
 */
export const OnAuthEvent = (event: AuthEventName): MethodDecorator => OnEvent(event, { suppressErrors: false });
