// The typecheck that runs beside the build in npm test's first step (scripts/typecheck-and-build.mjs).
// The build (`tsc -p tsconfig.build.json`) checks the files it compiles (libs, apps, bench/app, with
// Node's types alone); this is `tsc --noEmit -p tsconfig.json` (libs, apps, test, bench, with Jest's
// types too) less the semantic check of those files: the specs, test/ and bench/ are checked here,
// in the program that holds them, and the build's files once, by the build.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parsed(config) {
  const unrecoverable = [];
  const result = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => unrecoverable.push(diagnostic) });
  if (!result) return { errors: unrecoverable };
  return result;
}

/** tsc's diagnostics for the program of `config`, less the semantic ones of the files in `checkedElsewhere`; in tsc's order. */
function diagnosticsOf(config, checkedElsewhere) {
  const commandLine = parsed(join(root, config));
  if (!commandLine.fileNames) return commandLine.errors;
  const program = ts.createProgram({
    rootNames: commandLine.fileNames,
    options: commandLine.options,
    projectReferences: commandLine.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(commandLine),
  });
  const diagnostics = [...program.getConfigFileParsingDiagnostics(), ...program.getSyntacticDiagnostics()];
  if (diagnostics.length > 0) return diagnostics;
  diagnostics.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
  if (diagnostics.length > 0) return diagnostics;
  for (const file of program.getSourceFiles()) {
    if (!checkedElsewhere.has(file.fileName)) diagnostics.push(...program.getSemanticDiagnostics(file));
  }
  return diagnostics;
}

const build = parsed(join(root, 'tsconfig.build.json'));
const checkedByBuild = new Set(build.fileNames ?? []);
const diagnostics = diagnosticsOf('tsconfig.json', checkedByBuild);
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => ts.sys.newLine };
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stdout.write(`${format(diagnostics, host)}\n`);
  const errors = diagnostics.filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error).length;
  process.stdout.write(`Found ${errors} error${errors === 1 ? '' : 's'}.\n`);
  process.exit(errors > 0 ? 2 : 0);
}
