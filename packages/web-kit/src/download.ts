/** Saves text or bytes as a file the person downloads (a blob link: nothing leaves the page, no inline script). */
export function downloadFile(name: string, data: string | Uint8Array, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
