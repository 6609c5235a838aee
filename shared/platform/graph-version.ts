/**
 * The Graph API version the service calls, unless GRAPH_API_VERSION (CDK context
 * `graphApiVersion`) says otherwise. v26.0 was released on 29 July 2026; Meta supports a version
 * for about two years after the next one's release. Moving on: docs/operations.md, "Graph API version".
 */
export const DEFAULT_GRAPH_API_VERSION = 'v26.0';
