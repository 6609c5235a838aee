/**
 * Erasing a workspace (contract §19): `DELETE /admin/v1/workspaces/{id}` marks it `deleting` and
 * queues an erasure job; the job erases it step by step, recording its progress on the workspace
 * item, which goes last. Every step is idempotent and each progress write is conditioned on the
 * one it followed, so a job that crashed is taken up again by its redelivery, and a second
 * DELETE's job joins the first: whichever writes first goes on, the other stops.
 * docs/operator.md, "Erasure".
 */
import { getWorkspace, beginErasure, recordErasure, removeErasedWorkspace } from '#shared/data/workspace';
import { numbersOf, workspaceIdOfNumber } from '#shared/data/business-number';
import { deleteItems, scanWorkspaceItems } from '#shared/data/workspace-erasure';
import { forgetWorkspace } from '#shared/domain/workspaces';
import { env } from '#shared/config';
import { errors } from '#shared/errors';
import { deleteObjectsPage, workspaceMediaPrefix } from '#shared/media/bucket-erasure';
import { deleteWorkspaceSecret } from '#shared/platform/workspace-secrets';
import { enqueue, queueUrl } from '#shared/queue-client';
import { unscheduleCampaign } from '#shared/scheduler';
import type { JobOutcome } from '#shared/sqs-worker';
import { nowIso } from '#shared/time';
import type { Workspace, WorkspaceErasure } from '#shared/records/workspace';

export interface ErasureJob {
  workspace_id: string;
}

/** How long one job works before it hands on to a new one (the worker's time-out is 300 s). */
const JOB_WORK_MS = 60_000;

/** The numbers whose claim the workspace holds: their items keyed by number are its own. */
async function heldNumbers(workspace: Workspace): Promise<string[]> {
  // A workspace created without a number has no first number until one is connected (docs/operator.md §5).
  const first = workspace.phone_number_id ? [workspace.phone_number_id] : [];
  const candidates = new Set([...first, ...(await numbersOf(workspace.id)).map((n) => n.id)]);
  const held = await Promise.all([...candidates].map(async (id) => ((await workspaceIdOfNumber(id)) === workspace.id ? id : undefined)));
  return held.filter((id): id is string => id !== undefined);
}

/** Starts the erasure (or, already under way, hands it a job again: a stalled one resumes) and answers the workspace as it is now. */
export async function requestErasure(id: string): Promise<Workspace> {
  const workspace = await getWorkspace(id);
  if (!workspace) throw errors.notFound('Workspace');
  if (workspace.status !== 'deleting') {
    const erasure: WorkspaceErasure = {
      requested_at: nowIso(),
      step: 'table',
      numbers: await heldNumbers(workspace),
      items_deleted: 0,
      media_deleted: 0,
      version: 0,
    };
    await beginErasure(id, erasure);
    forgetWorkspace(id);
  }
  await enqueue(queueUrl('erasure'), [{ workspace_id: id } satisfies ErasureJob]);
  const now = await getWorkspace(id);
  if (!now) throw errors.notFound('Workspace');
  return now;
}

/** The progress after one more step, or `erased` once the workspace item itself is gone. */
async function step(ws: string, erasure: WorkspaceErasure): Promise<WorkspaceErasure | 'erased'> {
  const { cursor: _cursor, grace_until: _grace, ...rest } = erasure;
  switch (erasure.step) {
    case 'table':
    case 'recheck': {
      const page = await scanWorkspaceItems(ws, erasure.numbers, erasure.cursor);
      // A campaign's schedules first: once its item is gone, nothing would lead to them.
      for (const campaignId of page.campaignIds) await unscheduleCampaign(campaignId);
      await deleteItems(page.keys);
      const progress = { ...rest, items_deleted: erasure.items_deleted + page.keys.length };
      if (page.next) return { ...progress, cursor: page.next };
      if (erasure.step === 'table') return { ...progress, step: 'grace', grace_until: Date.now() + env.erasureGraceSeconds * 1000 };
      return { ...progress, step: 'media' };
    }
    case 'grace':
      return { ...rest, step: 'recheck' };
    case 'media': {
      const deleted = await deleteObjectsPage(workspaceMediaPrefix(ws));
      return deleted ? { ...rest, media_deleted: erasure.media_deleted + deleted } : { ...rest, step: 'secret' };
    }
    case 'secret':
      await deleteWorkspaceSecret(ws);
      await removeErasedWorkspace(ws);
      return 'erased';
  }
}

/**
 * One erasure job: steps until the workspace is gone, its time is up (a new job goes on), the
 * grace before the second pass holds it (it comes back then), or another job moved the progress
 * first (that one goes on).
 */
export async function processErasureJob(job: ErasureJob): Promise<JobOutcome> {
  const started = Date.now();
  for (;;) {
    const workspace = await getWorkspace(job.workspace_id);
    if (workspace?.status !== 'deleting') return { kind: 'done' };
    const erasure = workspace.erasure!;
    if (erasure.step === 'grace' && erasure.grace_until! > Date.now())
      return { kind: 'retry', delaySeconds: Math.ceil((erasure.grace_until! - Date.now()) / 1000) };
    if (Date.now() - started > JOB_WORK_MS) {
      await enqueue(queueUrl('erasure'), [job]);
      return { kind: 'done' };
    }
    const next = await step(workspace.id, erasure);
    if (next === 'erased') return { kind: 'done' };
    if (!(await recordErasure(workspace.id, { ...next, version: erasure.version + 1 }))) return { kind: 'done' };
  }
}
