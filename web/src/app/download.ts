// Saves text or a blob as a file through the browser's download.
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(name: string, text: string, type: string): void {
  downloadBlob(name, new Blob([text], { type }));
}

/** "duplicate-job-blind-del": a file name stem for a run. */
export function fileStem(scenario: string, variant: string): string {
  return `racelab-${scenario}-${variant}`.replace(/[^A-Za-z0-9._-]+/g, '-');
}
