/** The templates' helpers live beside the CDK app (lib/templates.ts): the local stack reads the functions' roles with them too. */
export * from '#lib/templates';
