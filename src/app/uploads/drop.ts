// Files out of a drop or a picker, with their path inside a dropped folder (an .mrxs comes as a
// folder holding the .mrxs file and its data folder, §2.6).
import type { PickedFile } from '../../workers/uploads';

/** A picker's files; a folder picker sets webkitRelativePath ('Folder/slide/Index.dat'). */
export function fromFileList(list: FileList | File[]): PickedFile[] {
  return [...list].map((file) => ({
    file,
    relativePath: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
  }));
}

const readEntries = (reader: FileSystemDirectoryReader) =>
  new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ file, relativePath: entry.fullPath.replace(/^\//, '') });
    return;
  }
  if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries answers in batches (100 in Chromium) until it returns none.
    for (let batch = await readEntries(reader); batch.length; batch = await readEntries(reader))
      for (const child of batch) await walk(child, out);
  }
}

/** Every file of a drop, folders walked recursively. */
export async function fromDataTransfer(data: DataTransfer): Promise<PickedFile[]> {
  const entries = [...data.items]
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return fromFileList(data.files);
  const out: PickedFile[] = [];
  for (const e of entries) await walk(e, out);
  return out;
}
