// svc/health: what needs @nestjs/terminus (an optional peer dependency), apart from the main entry.
export { AuthHealthIndicator } from './auth-health.indicator.js';
