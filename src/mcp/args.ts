import { CarteError, preview } from '../errors.js';

/** Reads meta-tool arguments, naming the bad field and value in every error. */
export class Args {
  constructor(
    private readonly tool: string,
    private readonly raw: Record<string, unknown>,
  ) {}

  string(name: string, required: true): string;
  string(name: string, required?: false): string | undefined;
  string(name: string, required = false): string | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) {
      if (required) throw this.bad(`${this.tool}: "${name}" is required`);
      return undefined;
    }
    if (typeof v !== 'string') throw this.bad(`${this.tool}: "${name}" must be a string, not ${preview(v)}`);
    return v;
  }

  query(): string | string[] {
    const v = this.raw.query;
    if (typeof v === 'string') return v;
    if (Array.isArray(v) && v.length > 0 && v.every((q) => typeof q === 'string')) return v;
    throw this.bad(
      `${this.tool}: "query" must be a string or a non-empty array of strings, not ${preview(v ?? null)}`,
    );
  }

  limit(max: number): number | undefined {
    const v = this.raw.limit;
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
      throw this.bad(`${this.tool}: "limit" must be an integer from 1 to ${max}, not ${preview(v)}`);
    }
    return v;
  }

  /** `maxTokens`: a whole number (the gateway checks its range and says the minimum). */
  maxTokens(): number | undefined {
    const v = this.raw.maxTokens;
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      throw this.bad(`${this.tool}: "maxTokens" must be a whole number, not ${preview(v)}`);
    }
    return v;
  }

  /** `format`: "typescript" asks for TypeScript signatures (run_code's), "json" or nothing for JSON. */
  format(): 'json' | 'typescript' {
    const v = this.raw.format;
    if (v === undefined || v === null || v === 'json') return 'json';
    if (v === 'typescript') return v;
    throw this.bad(`${this.tool}: "format" must be "typescript" or "json", not ${preview(v)}`);
  }

  value(name: string): unknown {
    return this.raw[name];
  }

  private bad(message: string): CarteError {
    return new CarteError('bad_input', message);
  }
}
