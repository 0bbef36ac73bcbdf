/**
 * The two ways the share and export UI hands text to the user: a download
 * (a Blob behind an `<a download>`, so nothing leaves the browser) and the
 * clipboard.
 */

/** Offers `text` as a file download named `name`. */
export function downloadText(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the URL is not needed after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Writes `text` to the clipboard; resolves false when the browser does not
 * allow it (no permission, an insecure page, no Clipboard API), so the
 * caller can show the text to copy by hand instead.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
