/** The page's style sheet, served as /demo.css (the CSP allows no inline style). */
export const demoPageCss = String.raw`
:root {
  color-scheme: light dark;
  --text: #1c2430; --muted: #586474; --line: #d5dbe3; --surface: #ffffff; --page: #f3f5f8;
  --accent: #2450d6; --accent-text: #ffffff; --focus: #f2a900;
  --alert-text: #8a1c1c; --alert-bg: #fdecec; --alert-line: #e9a6a6;
  --notice-text: #18543a; --notice-bg: #e8f6ee; --notice-line: #a5d8bb;
}
@media (prefers-color-scheme: dark) {
  :root {
    --text: #e6eaf0; --muted: #a3adbb; --line: #3a4452; --surface: #1d232c; --page: #12161c;
    --accent: #7f9dff; --accent-text: #0b1020;
    --alert-text: #ffc9c9; --alert-bg: #3a1d1f; --alert-line: #7a3a3e;
    --notice-text: #bdf0d2; --notice-bg: #173226; --notice-line: #2f6b4d;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: var(--page); }
a { color: var(--accent); }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: .9em; }
[hidden] { display: none !important; }

.bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .25rem 1rem;
  padding: .75rem 1rem; background: var(--surface); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: var(--text); }
.session { margin: 0; color: var(--muted); overflow-wrap: anywhere; }

main { max-width: 30rem; margin: 1.5rem auto; padding: 0 1rem; }
.card { background: var(--surface); border: 1px solid var(--line); border-radius: .75rem; padding: 1.25rem; }
h1 { font-size: 1.35rem; line-height: 1.3; margin: 0 0 1rem; overflow-wrap: anywhere; }
h1:focus { outline: none; }
h2 { font-size: 1.05rem; line-height: 1.3; margin: 0 0 .75rem; }
h2:focus { outline: none; }
h3 { font-size: 1rem; line-height: 1.3; margin: 1.25rem 0 .75rem; }

.alert, .notice { margin: 0 0 1rem; padding: .75rem 1rem; border-radius: .5rem; border: 1px solid; }
.alert { color: var(--alert-text); background: var(--alert-bg); border-color: var(--alert-line); }
.notice { color: var(--notice-text); background: var(--notice-bg); border-color: var(--notice-line); }
.alert:empty, .notice:empty { display: none; }
.alert ul { margin: 0; padding-left: 1.2rem; }

.field { display: grid; gap: .25rem; margin-bottom: 1rem; }
label, legend { font-weight: 600; }
input { font: inherit; width: 100%; min-height: 2.75rem; padding: .5rem .75rem; color: var(--text); background: var(--page);
  border: 1px solid var(--line); border-radius: .5rem; }
.hint { margin: 0; font-size: .875rem; color: var(--muted); }
.field-error { margin: 0; font-size: .875rem; font-weight: 600; color: var(--alert-text); overflow-wrap: anywhere; }
input[aria-invalid="true"] { border-color: var(--alert-text); box-shadow: 0 0 0 1px var(--alert-text); }
fieldset { margin: 1.5rem 0 0; padding: 1rem 0 0; border: 0; border-top: 1px solid var(--line); }
legend { padding: 0 .5rem 0 0; }
fieldset > .hint, .alternatives > .hint { margin-bottom: .75rem; }

button, .providers a { display: inline-flex; align-items: center; justify-content: center; min-height: 2.75rem; padding: .5rem 1.25rem;
  font: inherit; font-weight: 600; color: var(--accent); background: transparent; border: 2px solid var(--accent);
  border-radius: .5rem; cursor: pointer; text-decoration: none; }
button.primary, .providers a { color: var(--accent-text); background: var(--accent); }
button:disabled, button[aria-disabled="true"] { opacity: .6; cursor: progress; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }

.providers { list-style: none; margin: 0; padding: 0; display: grid; gap: .75rem; }
.providers a { width: 100%; }

.alternatives, .ways { margin: 1.5rem 0 0; padding: 1rem 0 0; border-top: 1px solid var(--line); }
.ways { margin-bottom: 1.25rem; padding-bottom: 1rem; border-bottom: 1px solid var(--line); }
.ways-list { list-style: none; margin: 0; padding: 0; display: grid; gap: .75rem; }
.way { display: grid; grid-template-columns: 1fr auto; align-items: center; gap: .25rem 1rem; }
.way-name { font-weight: 600; overflow-wrap: anywhere; }
.way-state { grid-column: 1; color: var(--muted); font-size: .875rem; overflow-wrap: anywhere; }
.way button { grid-column: 2; grid-row: 1 / span 2; }
.ways + .ways { margin-top: 0; padding-top: 0; border-top: 0; }
.add-passkey { margin-top: 1rem; }

.email-settings, .devices, .activity { margin: 0 0 1.25rem; padding: 0 0 1rem; border-bottom: 1px solid var(--line); }
.email-settings > p, .devices > p { margin: 0 0 .75rem; overflow-wrap: anywhere; }
.devices > button + .hint { margin: .5rem 0 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.users { margin: 0 0 1.25rem; padding: 0 0 1rem; border-bottom: 1px solid var(--line); }
.users-table { width: 100%; border-collapse: collapse; }
.users-table th, .users-table td { text-align: left; padding: .35rem .5rem .35rem 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.devices-list { list-style: none; margin: 0 0 1rem; padding: 0; display: grid; gap: .75rem; }
.activity-list { margin: 0; padding: 0 0 0 1.25rem; display: grid; gap: .25rem; overflow-wrap: anywhere; }
.device { display: grid; grid-template-columns: 1fr auto; align-items: center; gap: .25rem 1rem; }
.device-summary { display: grid; gap: .125rem; min-width: 0; }
.device-agent { font-size: .875rem; overflow-wrap: anywhere; }
.device-current { font-size: .875rem; }
.device-times { color: var(--muted); font-size: .875rem; }

.profile { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1.25rem; }
.profile dt { color: var(--muted); }
.profile dd { margin: 0; overflow-wrap: anywhere; }

.two-step { margin: 0 0 1.25rem; padding: 0 0 1rem; border-bottom: 1px solid var(--line); }
.two-step h2:focus, .two-step h3:focus { outline: none; }
h3 { font-size: 1rem; line-height: 1.3; margin: 0 0 .75rem; }
.two-step-howto { padding-left: 1.2rem; }
.two-step-howto li { margin-bottom: .5rem; }
.two-step-qr { display: block; margin: .5rem 0; width: 200px; max-width: 100%; height: auto; background: #ffffff; border-radius: .25rem; }
.two-step-secret, .recovery-codes code { overflow-wrap: anywhere; font-size: 1rem; letter-spacing: .05em; }
.recovery-codes { margin: 0 0 1rem; padding-left: 1.2rem; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; }

/* The signed-in card in groups: one after the other on a phone, three columns on a wide screen. */
.groups { display: grid; gap: 1.5rem; margin-bottom: 1.25rem; }
.group { min-width: 0; }
.group + .group { border-top: 2px solid var(--line); padding-top: 1.25rem; }
.group-title { font-size: .8rem; font-weight: 700; letter-spacing: .08em; text-transform: uppercase; color: var(--muted); margin: 0 0 1rem; }
.group > :last-child { margin-bottom: 0; border-bottom: 0; padding-bottom: 0; }
/* Each part of a group ends with its own line: the next one needs none above it. */
.group > * + .ways { margin-top: 0; padding-top: 0; border-top: 0; }
.email-settings > button + form { margin-top: 1rem; }
.group-nav { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin: -.25rem 0 1.25rem; font-size: .875rem; }
.group-nav a { padding: .5rem 0; }
@media (min-width: 60rem) {
  main:has(> #signed-in:not([hidden])) { max-width: 74rem; }
  .groups { grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 2rem; align-items: start; }
  .group + .group { border-top: 0; padding-top: 0; border-left: 1px solid var(--line); padding-left: 2rem; }
  .group-nav { display: none; }
}

footer { max-width: 30rem; margin: 0 auto 2rem; padding: 0 1rem; font-size: .875rem; color: var(--muted); }

@media (max-width: 26rem) {
  main { margin-top: 1rem; padding: 0 .75rem; }
  .card { padding: 1rem; }
  button.primary, fieldset button { width: 100%; }
}
`;
