// Devices: each file of test/devices/cases/
// describes its applications with their own setup and teardown.
await import('./cases/device-list.js');
await import('./cases/lifetimes.js');
await import('./cases/upgrade.js');
