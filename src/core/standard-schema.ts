/**
 * The Standard Schema interface (https://standardschema.dev, version 1), written out here as the
 * specification invites, so that no package is needed for it: zod, valibot, arktype and others
 * implement it, and ky validates a body with any of them.
 */

/**
 * A schema of any library that implements Standard Schema version 1, such as zod, valibot or
 * arktype: what {@link Client.request} validates a response body with.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 *
 * const member: StandardSchemaV1<unknown, { id: string }> = z.object({ id: z.string() });
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The library's implementation of the standard. */
  readonly '~standard': {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The library's name, such as `zod`. */
    readonly vendor: string;
    /** Checks a value: its output when it passes, else the issues found. */
    readonly validate: (
      value: unknown,
    ) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
    /** The schema's input and output types, for inference only. */
    readonly types?:
      | {
          /** What the schema accepts. */
          readonly input: Input;
          /** What it gives. */
          readonly output: Output;
        }
      | undefined;
  };
}

/**
 * What a Standard Schema's `validate` answers: the output, or the issues.
 *
 * @example
 * ```ts
 * const passed: StandardSchemaV1Result<number> = { value: 42 };
 * const failed: StandardSchemaV1Result<number> = { issues: [{ message: 'expected a number' }] };
 * ```
 */
export type StandardSchemaV1Result<Output> =
  | {
      /** The value the schema gives. */
      readonly value: Output;
      /** None: the value passed. */
      readonly issues?: undefined;
    }
  | {
      /** Every problem found. */
      readonly issues: ReadonlyArray<{
        /** What is wrong. */
        readonly message: string;
        /** Where, from the root of the value. */
        readonly path?:
          | ReadonlyArray<
              | PropertyKey
              | {
                  /** A key on the way. */
                  readonly key: PropertyKey;
                }
            >
          | undefined;
      }>;
    };

/**
 * The type a Standard Schema validates to: what {@link Client.request} resolves to with it.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 *
 * const member = z.object({ id: z.string() });
 * type Member = StandardSchemaV1InferOutput<typeof member>; // { id: string }
 * ```
 */
export type StandardSchemaV1InferOutput<Schema extends StandardSchemaV1> = NonNullable<
  Schema['~standard']['types']
>['output'];
