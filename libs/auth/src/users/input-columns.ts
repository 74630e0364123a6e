import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { inputColumnsOf } from './svc-columns.decorators.js';

/** Columns that only the library writes: tagging them `@SvcInput()` would let a client set them. */
const LIBRARY_OWNED = ['id', 'email', 'emailSkeleton', 'emailVerifiedAt', 'password', 'passwordHash', 'isActive', 'mfaTotpEnabled', 'createdAt', 'updatedAt'];

/** A class whose validation rules are those of the user's `@SvcInput()` columns, as signup checks them. */
export function inputColumnsSchema(userEntity: Function): Type<object> {
  class InputColumns {}
  copyInputRules(userEntity, InputColumns);
  return InputColumns;
}

/** Gives a request schema (signup's) each `@SvcInput()` column with the class-validator rules of the entity. */
export function copyInputRules(userEntity: Function, schema: Function): void {
  const storage = getMetadataStorage();
  const rules = storage.getTargetValidationMetadatas(userEntity, '', true, false);
  for (const column of inputColumnsOf(userEntity)) {
    if (LIBRARY_OWNED.includes(column)) {
      throw new TypeError(`${userEntity.name}.${column} is written by svc only and cannot be tagged @SvcInput()`);
    }
    const columnRules = rules.filter((rule) => rule.propertyName === column);
    if (columnRules.length === 0) {
      throw new TypeError(`${userEntity.name}.${column} is tagged @SvcInput() but has no class-validator decorator (e.g. @IsString())`);
    }
    for (const rule of columnRules) {
      storage.addValidationMetadata(Object.assign(Object.create(Object.getPrototypeOf(rule)), rule, { target: schema }));
    }
  }
}
