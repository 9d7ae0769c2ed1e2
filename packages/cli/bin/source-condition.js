// Module hook (repository only): resolve workspace packages to their TypeScript sources.
export async function resolve(specifier, context, next) {
  return next(specifier, { ...context, conditions: [...context.conditions, '@cambio/source'] });
}
