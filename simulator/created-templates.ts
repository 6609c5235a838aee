import { randomInt } from 'node:crypto';
import type { GraphComponent, SimulatedTemplate, TemplateStatus } from '#simulator/templates';

/** The platform's limits on editing an approved template (Meta, "Edit a message template"). */
export const EDIT_LIMITS = { minIntervalMs: 24 * 3600_000, perWindow: 10, windowMs: 30 * 24 * 3600_000 };

/** A template created through the simulator's Graph API, in one business account. */
export interface CreatedTemplate extends SimulatedTemplate {
  id: string;
  wabaId: string;
  /** When an approved template was edited, newest last: the edit limits count them. */
  approvedEdits: number[];
}

const key = (wabaId: string, name: string, language: string) => `${wabaId}|${name}|${language}`;

/** A 16-digit id like the platform's template ids, never one of the catalogue's (those start with 1–9 too, but are stable hashes). */
const newTemplateId = () => `${randomInt(1, 10)}${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}`;

/** The templates created through the API, and the names deleted, per business account. */
export class CreatedTemplates {
  private readonly templates = new Map<string, CreatedTemplate>();
  /** Name and language pairs deleted: the platform does not let them be created again at once (2388023). */
  private readonly deleted = new Set<string>();

  add(wabaId: string, template: Omit<SimulatedTemplate, 'status'>): CreatedTemplate {
    const created: CreatedTemplate = { ...template, status: 'PENDING', id: newTemplateId(), wabaId, approvedEdits: [] };
    this.templates.set(key(wabaId, template.name, template.language), created);
    return created;
  }

  find(wabaId: string, name: string, language: string): CreatedTemplate | undefined {
    return this.templates.get(key(wabaId, name, language));
  }

  byId(id: string): CreatedTemplate | undefined {
    return [...this.templates.values()].find((template) => template.id === id);
  }

  isBeingDeleted(wabaId: string, name: string, language: string): boolean {
    return this.deleted.has(key(wabaId, name, language));
  }

  of(wabaId: string): CreatedTemplate[] {
    return [...this.templates.values()].filter((template) => template.wabaId === wabaId);
  }

  setStatus(template: CreatedTemplate, status: TemplateStatus): void {
    template.status = status;
  }

  edit(template: CreatedTemplate, components: GraphComponent[], category: CreatedTemplate['category'] | undefined, at: number): void {
    if (template.status === 'APPROVED') template.approvedEdits.push(at);
    template.components = components;
    if (category) template.category = category;
    template.status = 'PENDING';
  }

  /** Removes the named templates (one language, or all of the name) and answers how many went. */
  remove(wabaId: string, name: string, id?: string): number {
    const doomed = this.of(wabaId).filter((template) => template.name === name && (id === undefined || template.id === id));
    for (const template of doomed) {
      this.templates.delete(key(wabaId, template.name, template.language));
      this.deleted.add(key(wabaId, template.name, template.language));
    }
    return doomed.length;
  }
}
