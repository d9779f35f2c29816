// Procedure inputs typed as the router declares them, so a test calls a procedure the way a client may.
import type { inferProcedureInput } from '@trpc/server';
import type { AppRouter } from '#server/trpc/router.ts';

export type ActivateInput = inferProcedureInput<AppRouter['sim']['activate']>;
export type EditInput = inferProcedureInput<AppRouter['sim']['edit']>;
export type CreateCompanyInput = inferProcedureInput<AppRouter['admin']['createCompany']>;
export type CreateUserInput = inferProcedureInput<AppRouter['admin']['createUser']>;

/**
 * Input the schema must refuse (a missing field, a wrong type), passed where the compiler wants a valid
 * one: the only place the tests override the procedures' types.
 */
export const bad = <T>(input: unknown) => input as T;
