/**
 * The files a test's page hands the browser to save (saveFile: an object URL clicked as a `download` link), which
 * jsdom cannot save: each click is recorded with the file and its name instead. Call in a describe block.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export interface SavedFile { file: Blob; fileName: string }

export function useSavedFiles(): SavedFile[] {
  const saved: SavedFile[] = [];
  beforeEach(() => {
    saved.length = 0;
    let lastFile: Blob | undefined;
    // jsdom has no object URLs: the page's URL, with them.
    vi.stubGlobal('URL', class extends URL {
      static override createObjectURL(file: Blob) { lastFile = file; return 'blob:saved-file'; }
      static override revokeObjectURL() {}
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ file: lastFile!, fileName: this.download });
    });
  });
  afterEach(() => { vi.restoreAllMocks(); });
  return saved;
}
