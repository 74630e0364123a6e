/**
 * /demo/steps.js: a multi-step section shows one `<template>` at a time, copied into its step
 * container; the step it replaces leaves the page, fields included, so no label is there twice.
 */
export const stepsScript = String.raw`/** Replaces what the container shows with a copy of the template; returns the container. */
export function showStep(container, templateId) {
  container.replaceChildren(document.getElementById(templateId).content.cloneNode(true));
  container.dataset.step = templateId;
  return container;
}

export function clearStep(container) {
  container.replaceChildren();
  delete container.dataset.step;
}

/** The template id the container shows now, or null. */
export function currentStep(container) {
  return container.dataset.step || null;
}
`;
