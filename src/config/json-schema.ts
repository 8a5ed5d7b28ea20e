import { z } from 'zod';
import { ConfigSchema } from './schema.js';

/**
 * The JSON Schema (draft 2020-12) of Carte's config format, generated from ConfigSchema, for
 * editor completion. It describes files as written: defaults are shown, not required. Point a
 * YAML file at it with `# yaml-language-server: $schema=<path to schema/carte.schema.json>`.
 */
export function configJsonSchema(): Record<string, unknown> {
  const { $schema, ...body } = z.toJSONSchema(ConfigSchema, { io: 'input', target: 'draft-2020-12' });
  return { $schema, title: 'Carte configuration', ...body };
}
