import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { AuthHealthIndicator } from '#svc/auth/health';

/** `GET /health` as an application writes it with @nestjs/terminus and svc's indicator. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly auth: AuthHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.auth.isHealthy()]);
  }
}
