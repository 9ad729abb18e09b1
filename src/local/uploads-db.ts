// The upload records of this browser (spec §3 "Upload file record") in their own Dexie
// database, apart from the mirror: the upload worker opens it without the mirror's schema, and large
// file copies (the IndexedDB fallback of OPFS) never sit in the database the sync engine works on.
// Schema changes add a version; never edit an old one.
import Dexie, { type EntityTable } from 'dexie';
import type { UploadStatus } from '../api/uploads';

/** Where this browser keeps a copy of a part's file, so that an upload resumes after a restart. */
export type KeptIn = 'opfs' | 'idb' | 'none' | 'pending';

export interface UploadPartRecord {
  /** Place inside the dropped folder, or the file name for a single file; unique within its record. */
  relativePath: string;
  name: string;
  /** bytes */
  size: number;
  lastModified: number;
  /** SHA-256 over name, size, date and the first and last MiB: checks a re-picked file. */
  fingerprint: string;
  /** The tus resource, once created: resuming uses it, so a restart never makes a second one. */
  tusUrl?: string;
  /** Bytes the server has confirmed. */
  offset: number;
  done: boolean;
  kept: KeptIn;
}

export interface UploadRecord {
  /** The upload group's id on the server (a uuid), and the fileId of ?fixUpload / ?fixCreateUpload. */
  id: string;
  userId: string;
  /** The slide file's name (the .mrxs of a folder). */
  name: string;
  /** Bytes of every part together (uploadSize of §3). */
  size: number;
  transferred: number;
  /** 0 to 1 */
  progress: number;
  status: UploadStatus;
  error: string | null;
  scanGroupId: string | null;
  imageId: string | null;
  labelUrl: string | null;
  parts: UploadPartRecord[];
  /** Set when the browser kept no copy and the user must choose the same file(s) again. */
  needsFile?: boolean;
  /** Canceled while the server could not be told: its DELETE is sent when the network is back. */
  cancelPending?: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface KeptBlob {
  /** `${recordId}/${relativePath}` */
  key: string;
  recordId: string;
  blob: Blob;
}

export class UploadsDb extends Dexie {
  records!: EntityTable<UploadRecord, 'id'>;
  blobs!: EntityTable<KeptBlob, 'key'>;

  constructor(name = 'tessera-uploads') {
    super(name);
    this.version(1).stores({ records: 'id, userId, createdAt, status', blobs: 'key, recordId' });
  }
}

let instance: UploadsDb | undefined;
/** The one uploads database of this origin (tests make their own). */
export function uploadsDb(): UploadsDb {
  instance ??= new UploadsDb();
  return instance;
}
