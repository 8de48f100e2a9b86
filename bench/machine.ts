import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The machine the figures come from, as one line per fact. */
export function describeMachine(): string[] {
  const cpus = os.cpus();
  return [
    `CPU: ${cpus[0]?.model.trim() ?? 'unknown'}, ${os.availableParallelism()} cores`,
    `Memory: ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    `Node: ${process.version}`,
    `OS: ${osName()} (${os.type()} ${os.release()} ${os.arch()})`,
  ];
}

function osName(): string {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1] ?? os.type();
  } catch {
    return os.type();
  }
}
