/**
 * The files of the README's example application: each fenced block right after a
 * `<!-- file: <path> -->` line, keyed by that path.
 */
export function readmeFiles(readme: string): Map<string, string> {
  const files = new Map<string, string>();
  const block = /^<!-- file: (\S+) -->\n```[a-z]*\n([\s\S]*?)^```$/gm;
  for (const [, path, content] of readme.matchAll(block)) {
    if (files.has(path)) throw new Error(`README names ${path} twice`);
    files.set(path, content);
  }
  return files;
}
