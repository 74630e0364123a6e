/**
 * steps: a multi-step section shows one `<template>` at a time, copied into its step
 * container; the step it replaces leaves the page, fields included, so no label is there twice.
 */
/** Replaces what the container shows with a copy of the template; returns the container. */
import { byId } from './dom.js';

export function showStep(container: HTMLElement, templateId: string): HTMLElement {
  container.replaceChildren(byId<HTMLTemplateElement>(templateId).content.cloneNode(true));
  container.dataset.step = templateId;
  return container;
}

export function clearStep(container: HTMLElement): void {
  container.replaceChildren();
  delete container.dataset.step;
}

/** The template id the container shows now, or null. */
export function currentStep(container: HTMLElement): string | null {
  return container.dataset.step || null;
}
