/**
 * How the simulator reviews templates created or edited through its API: after `delayMs` the
 * template takes `outcome` and the platform's status update is pushed; with `delayMs: null` it
 * stays PENDING until `POST /_simulate/template-status` decides.
 */
export interface TemplateReviewSettings {
  delayMs: number | null;
  outcome: 'APPROVED' | 'REJECTED';
}

export const MANUAL_REVIEW: TemplateReviewSettings = { delayMs: null, outcome: 'APPROVED' };
