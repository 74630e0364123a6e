/** The page's icon, served as /favicon.svg (without one, browsers ask for /favicon.ico and get a 404). */
export const demoPageIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2450d6"/><rect x="9" y="14" width="14" height="11" rx="2" fill="#fff"/><path d="M11.5 14v-3a4.5 4.5 0 0 1 9 0v3" fill="none" stroke="#fff" stroke-width="2.5"/></svg>
`;
