import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { localWiring } from '#local/triggers';
import { loadHandler } from '#local/handlers';
import { lambdaContext } from '#local/lambda-context';
import { listenOn } from '#local/ports';

interface Schedule {
  name: string;
  at: number;
  targetArn: string;
  input: string;
}

export interface LocalScheduler {
  endpoint: string;
  stop(): Promise<void>;
}

const AT = /^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$/;

function send(response: ServerResponse, status: number, body: unknown, errorType?: string) {
  response.writeHead(status, { 'Content-Type': 'application/json', ...(errorType && { 'x-amzn-errortype': errorType }) });
  response.end(JSON.stringify(body));
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
  });

/**
 * EventBridge Scheduler, locally: the CreateSchedule / DeleteSchedule / ListSchedules API (one-time `at(…)`
 * schedules, what the service uses) on a local port for the SDK client, with a timer per
 * schedule that invokes the target operation's handler with the schedule's input, then deletes
 * the schedule. Schedules are kept in `file`, so they survive a restart of the local stack.
 */
export async function startLocalScheduler(port: number, file?: string): Promise<LocalScheduler> {
  const schedules = new Map<string, Schedule>(file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Schedule[]).map((s) => [s.name, s]) : []);
  const timers = new Map<string, NodeJS.Timeout>();
  const persist = () => file && writeFileSync(file, JSON.stringify([...schedules.values()], null, 2));

  async function fire(schedule: Schedule) {
    timers.delete(schedule.name);
    const functionName = schedule.targetArn.split(':').pop();
    const operation = localWiring.scheduleTargets.find((op) => op.name === functionName);
    try {
      if (!operation) throw new Error(`No operation ${functionName}`);
      const handler = await loadHandler(operation);
      await handler(JSON.parse(schedule.input), lambdaContext(operation.name, operation.timeoutSeconds));
    } catch (error) {
      console.error(`Schedule ${schedule.name} failed`, error);
    }
    schedules.delete(schedule.name);
    persist();
  }

  function arm(schedule: Schedule) {
    // setTimeout holds at most ~24.8 days; re-arm for later schedules.
    const delay = Math.max(0, schedule.at - Date.now());
    timers.set(
      schedule.name,
      setTimeout(() => (delay > 2 ** 31 - 1 ? arm(schedule) : void fire(schedule)), Math.min(delay, 2 ** 31 - 1)),
    );
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, { Message: String(error) }, 'InternalServerException'));
  });
  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'GET' && url.pathname === '/schedules') {
      // ListSchedules: by name prefix, in one page.
      const prefix = url.searchParams.get('NamePrefix') ?? '';
      const found = [...schedules.values()].filter((schedule) => schedule.name.startsWith(prefix));
      return send(response, 200, { Schedules: found.map((schedule) => ({ Name: schedule.name, GroupName: 'default', State: 'ENABLED' })) });
    }
    const name = decodeURIComponent(/^\/schedules\/([^/]+)$/.exec(url.pathname)?.[1] ?? '');
    if (!name) return send(response, 404, { Message: 'Not found' }, 'ResourceNotFoundException');
    if (request.method === 'POST') {
      const body = JSON.parse((await readBody(request)) || '{}') as { ScheduleExpression?: string; Target?: { Arn?: string; Input?: string } };
      if (schedules.has(name)) return send(response, 409, { Message: `Schedule ${name} already exists.` }, 'ConflictException');
      const at = AT.exec(body.ScheduleExpression ?? '')?.[1];
      if (!at || !body.Target?.Arn) return send(response, 400, { Message: 'Only one-time at() schedules with a target are supported' }, 'ValidationException');
      const schedule = { name, at: Date.parse(`${at}Z`), targetArn: body.Target.Arn, input: body.Target.Input ?? '{}' };
      schedules.set(name, schedule);
      persist();
      arm(schedule);
      return send(response, 200, { ScheduleArn: `arn:aws:scheduler:us-east-1:000000000000:schedule/default/${name}` });
    }
    if (request.method === 'DELETE') {
      if (!schedules.delete(name)) return send(response, 404, { Message: `Schedule ${name} does not exist.` }, 'ResourceNotFoundException');
      clearTimeout(timers.get(name));
      timers.delete(name);
      persist();
      return send(response, 200, {});
    }
    return send(response, 405, { Message: 'Method not allowed' }, 'ValidationException');
  }
  const listening = await listenOn(server, port);
  for (const schedule of schedules.values()) arm(schedule);
  return {
    endpoint: `http://127.0.0.1:${listening}`,
    stop: async () => {
      timers.forEach(clearTimeout);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
