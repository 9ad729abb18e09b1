// Printing waits for the pictures on the sheet (§9): a thumbnail or barcode still loading would print
// as an empty box.

/** Resolves once every <img> inside `root` has loaded or failed. */
export async function picturesLoaded(root: HTMLElement): Promise<void> {
  const pending = [...root.querySelectorAll('img')].filter((img) => !img.complete);
  await Promise.all(
    pending.map(
      (img) =>
        new Promise<void>((resolve) => {
          img.addEventListener('load', () => resolve(), { once: true });
          img.addEventListener('error', () => resolve(), { once: true });
        }),
    ),
  );
}
