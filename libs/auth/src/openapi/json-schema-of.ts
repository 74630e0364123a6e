import { getMetadataStorage, type ValidationArguments } from 'class-validator';

type ValidationRule = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** A JSON Schema object as OpenAPI 3.0 writes it (a subset: what request bodies need). */
export interface JsonSchema {
  type?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: unknown[];
  nullable?: boolean;
  description?: string;
  items?: JsonSchema;
  $ref?: string;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/**
 * The JSON Schema of a request schema class, read from the same class-validator rules the validator
 * enforces, so the document cannot drift from what is checked. Each known rule becomes its keyword;
 * a rule JSON Schema cannot say (a custom validator) is described by the message the validator gives
 * when it refuses a value (what a client reads in the 400), never by its internal name; unknown
 * fields are refused (`additionalProperties: false`), as the validator refuses them.
 */
export function jsonSchemaOf(schema: Function): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const optional = new Set<string>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(schema, '', true, false)) {
    const property = (properties[rule.propertyName] ??= {});
    const [first, second] = (rule.constraints ?? []) as unknown[];
    switch (rule.name ?? rule.type) {
      case 'isOptional':
      case 'conditionalValidation':
        optional.add(rule.propertyName);
        break;
      case 'isString':
        property.type = 'string';
        break;
      case 'isEmail':
        Object.assign(property, { type: 'string', format: 'email' });
        break;
      case 'isInt':
        property.type = 'integer';
        break;
      case 'isNumber':
        property.type = 'number';
        break;
      case 'isBoolean':
        property.type = 'boolean';
        break;
      case 'isObject':
        property.type = 'object';
        property.description = [property.description, ruleInWords(rule)].filter(Boolean).join('; ');
        break;
      case 'minLength':
        property.minLength = first as number;
        break;
      case 'maxLength':
        property.maxLength = first as number;
        break;
      case 'isLength':
        Object.assign(property, { minLength: first as number, ...(second === undefined ? {} : { maxLength: second as number }) });
        break;
      case 'min':
        property.minimum = first as number;
        break;
      case 'max':
        property.maximum = first as number;
        break;
      case 'isIn':
        property.enum = first as unknown[];
        break;
      case 'matches':
        property.pattern = first instanceof RegExp ? first.source : String(first);
        break;
      default:
        property.description = [property.description, ruleInWords(rule)].filter(Boolean).join('; ');
    }
  }
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** What a custom rule demands, in the words of its own refusal message. */
function ruleInWords(rule: ValidationRule): string {
  const args: ValidationArguments = { property: rule.propertyName, constraints: rule.constraints ?? [], value: undefined, targetName: '', object: {} };
  if (typeof rule.message === 'string') return rule.message;
  if (typeof rule.message === 'function') return rule.message(args);
  const [constraint] = getMetadataStorage().getTargetValidatorConstraints(rule.constraintCls);
  const message = (constraint?.instance as { defaultMessage?(args: ValidationArguments): string } | undefined)?.defaultMessage?.(args);
  return message ?? `${rule.propertyName} has a rule of the application's own`;
}
