/** Injection token of the demo's `DemoConfig`. */
export const DEMO_CONFIG = Symbol('demo:config');
