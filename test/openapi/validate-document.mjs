// Validates the OpenAPI document read from stdin with two independent tools, swagger-parser and
// Redocly's linter (recommended rules), and prints what each found as JSON. A script of its own
// because both ship ES modules that jest's CommonJS runtime cannot load.
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';

let source = '';
for await (const chunk of process.stdin) source += chunk;

let swaggerParserError = null;
try {
  await SwaggerParser.validate(JSON.parse(source));
} catch (error) {
  swaggerParserError = error.message;
}

const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
const redoclyProblems = problems.map(({ ruleId, severity, message, location }) => ({ ruleId, severity, message, pointer: location[0]?.pointer }));

process.stdout.write(JSON.stringify({ swaggerParserError, redoclyProblems }));
