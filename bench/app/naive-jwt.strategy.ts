import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectRepository } from '@nestjs/typeorm';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { Repository } from 'typeorm';
import { DEMO_CONFIG } from '../../apps/demo/src/demo.tokens.js';
import type { DemoConfig } from '../../apps/demo/src/demo-config.js';
import { DemoUser } from '../../apps/demo/src/users/demo-user.entity.js';

/**
 * Benchmark comparison only: a JWT strategy written the way the NestJS
 * documentation ("Authentication", "Implementing Passport JWT") teaches, plus the TypeORM lookup
 * an application typically adds in `validate()`. Not how svc verifies tokens.
 *
 * Key: with AUTH_STRATEGY=jwt the demo passes AUTH_SECRET itself as svc's `jwt.secretKey`, and svc
 * signs HS256 with the UTF-8 bytes of that string (no derivation: libs/auth/src/credentials/jwt/jwt-key.ts).
 * So the naive strategy gets the very same secret, as the plain string a user would write
 * (`secretOrKey: process.env.AUTH_SECRET`), and verifies svc's own access tokens. No `algorithms`
 * option either, as in the documentation (jsonwebtoken then allows HS256/384/512 for a string secret).
 */
@Injectable()
export class NaiveJwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(DEMO_CONFIG) config: DemoConfig,
    @InjectRepository(DemoUser) private readonly users: Repository<DemoUser>,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      ignoreExpiration: false,
      secretOrKey: config.secret,
    });
  }

  async validate(payload: { sub: string }): Promise<DemoUser> {
    const user = await this.users.findOne({ where: { id: payload.sub } });
    if (!user || !user.isActive) throw new UnauthorizedException();
    return user;
  }
}
