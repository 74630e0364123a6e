import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault, HostileEndpoint } from './hostile-script.js';
import { sendJson, sendText } from './http-io.js';

/** The faults a script set, each counting down its `times`. */
export class FaultBook {
  private readonly remaining = new Map<HostileEndpoint, { fault: Fault; left: number }>();

  constructor(faults: Partial<Record<HostileEndpoint, Fault>> = {}) {
    for (const [endpoint, fault] of Object.entries(faults) as [HostileEndpoint, Fault][]) {
      this.remaining.set(endpoint, { fault, left: fault.times ?? Number.POSITIVE_INFINITY });
    }
  }

  /** The fault for this request of `endpoint`, if one is still due. */
  take(endpoint: HostileEndpoint): Fault | undefined {
    const entry = this.remaining.get(endpoint);
    if (!entry || entry.left <= 0) return undefined;
    entry.left -= 1;
    return entry.fault;
  }
}

/** Pending delays, cancelled when the provider stops so that no answer outlives it. */
export class Delays {
  private readonly timers = new Set<NodeJS.Timeout>();

  wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve(true);
      }, ms);
      this.timers.add(timer);
    });
  }

  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/**
 * Acts out a fault. Returns true when the request is dealt with, false when the endpoint should
 * now answer normally (after a delay).
 */
export async function actOut(fault: Fault, request: IncomingMessage, response: ServerResponse, delays: Delays): Promise<boolean> {
  switch (fault.kind) {
    case 'status':
      sendText(response, fault.status, 'text/html; charset=utf-8', fault.body ?? `<html><body><h1>${fault.status}</h1></body></html>`);
      return true;
    case 'not-json':
      sendText(response, 200, fault.contentType ?? 'text/html; charset=utf-8', '<!DOCTYPE html><html><body>Welcome to nginx!</body></html>');
      return true;
    case 'json':
      sendJson(response, fault.status ?? 200, fault.body);
      return true;
    case 'delay':
      await delays.wait(fault.ms);
      return response.destroyed;
    case 'hang':
      return true;
    case 'reset':
      request.socket.resetAndDestroy();
      return true;
    case 'oversized':
      // The endpoint answers, through an oversized sender (HostileOidcProvider).
      return false;
  }
}
