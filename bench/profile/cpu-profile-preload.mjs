// Preloaded into a demo process (NODE_OPTIONS=--import <this file>, CPU_PROFILE_FILE=<path>): each
// SIGWINCH (not SIGUSR2, which Nest's shutdown hooks take) starts the V8 CPU profiler, the next stops it and writes <path>.<n>.cpuprofile, so that a
// profile holds one load slice and nothing of the startup (bench/profile-notes.md).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.CPU_PROFILE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  let running = false;
  let slice = 0;
  writeFileSync(`${file}.pid`, String(process.pid));
  process.on('SIGWINCH', async () => {
    if (!running) {
      running = true;
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: Number(process.env.CPU_PROFILE_INTERVAL_US ?? 250) });
      await post('Profiler.start');
      return;
    }
    running = false;
    const { profile } = await post('Profiler.stop');
    writeFileSync(`${file}.${++slice}.cpuprofile`, JSON.stringify(profile));
    writeFileSync(`${file}.${slice}.done`, '');
  });
}
