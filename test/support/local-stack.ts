import { callApi, type Reply } from '#local/api-client';
import { startLocalStack, type RunningStack } from '#local/spawn-stack';
import { checkReply } from './openapi-check';

/**
 * The whole local stack (`npm start`'s program) for one end-to-end suite, and a client holding
 * the demo key. Every answer is checked against the API document (test/support/openapi-check.ts).
 */
export function useLocalStack(): { local: () => RunningStack; call: (method: string, path: string, body?: unknown) => Promise<Reply> } {
  let local: RunningStack | undefined;
  beforeAll(async () => {
    local = await startLocalStack();
  }, 120_000);
  afterAll(async () => {
    await local?.stop();
  });
  return {
    local: () => local!,
    call: async (method, path, body) => {
      const reply = await callApi(local!.stack.base_url, method, path, { key: local!.credentials.api_key, body });
      checkReply(method, path, reply);
      return reply;
    },
  };
}
