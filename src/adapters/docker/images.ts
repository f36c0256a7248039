// Getting a task's image: the local one if present; else built from the task's Dockerfile (log streamed, one build
// per tag at a time); else pulled with progress when a registry answers; else an error naming the missing image.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import * as tar from 'tar-stream';
import { withDeadline } from './deadline';
import type { Engine } from './engine';
import { errorText } from '../../core/errorText';

export interface ImageInfo {
  /** The image id (`sha256:...`), recorded in every result. */
  id: string;
  /** The image's configured user, '' when none. */
  user: string;
  source: 'local' | 'built' | 'pulled';
}

export interface ImageRequest {
  image: string;
  /** Absolute path of a Dockerfile that builds `image`; its folder is the build context. */
  dockerfile?: string;
}

/** The image is not available and could not be built or pulled; the message names it and says what to do. */
export class ImageMissingError extends Error {
  constructor(
    readonly image: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ImageOptions {
  log?: (line: string) => void;
  buildTimeoutMs?: number;
  pullTimeoutMs?: number;
}

function statusCode(e: unknown): number | undefined {
  const c = (e as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof c === 'number' ? c : undefined;
}

/** Packs a build context folder (regular files and folders only; symlinks are skipped, never followed). */
export async function packContext(dir: string): Promise<Buffer> {
  const pack = tar.pack();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        pack.entry({ name: `${r}/`, type: 'directory', mode: 0o755 });
        walk(r);
      } else if (e.isFile()) {
        const abs = path.join(dir, r);
        pack.entry({ name: r, mode: fs.statSync(abs).mode & 0o777 }, fs.readFileSync(abs));
      }
    }
  };
  walk('');
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

interface ProgressEvent {
  stream?: string;
  status?: string;
  id?: string;
  progress?: string;
  error?: string;
  errorDetail?: { message?: string };
  aux?: { ID?: string };
}

function follow(docker: Docker, stream: NodeJS.ReadableStream, onEvent: (e: ProgressEvent) => void): Promise<ProgressEvent[]> {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null, out: ProgressEvent[]) => (err ? reject(err) : resolve(out)),
      (e: ProgressEvent) => onEvent(e),
    );
  });
}

export class ImageManager {
  private readonly building = new Map<string, Promise<ImageInfo>>();

  constructor(
    private readonly engine: Engine,
    private readonly opts: ImageOptions = {},
  ) {}

  private log(line: string): void {
    this.opts.log?.(line);
  }

  /** The image id and user of a local image, or undefined when it is not present. */
  async inspect(image: string, signal?: AbortSignal): Promise<ImageInfo | undefined> {
    const docker = await this.engine.docker();
    try {
      // Image.inspect takes no abortSignal in dockerode 5; the deadline still rejects on time.
      const info = await withDeadline(`inspecting image ${image}`, 10_000, () => docker.getImage(image).inspect(), signal);
      return { id: info.Id, user: info.Config?.User ?? '', source: 'local' };
    } catch (e) {
      if (statusCode(e) === 404) return undefined;
      throw e;
    }
  }

  async ensure(req: ImageRequest, signal?: AbortSignal): Promise<ImageInfo> {
    const local = await this.inspect(req.image, signal);
    if (local) return local;
    if (req.dockerfile) {
      // One build per tag at a time: later callers wait for the running build.
      let p = this.building.get(req.image);
      if (!p) {
        p = this.build(req.image, req.dockerfile, signal).finally(() => this.building.delete(req.image));
        this.building.set(req.image, p);
      }
      return p;
    }
    return this.pull(req.image, signal);
  }

  private async build(image: string, dockerfile: string, signal?: AbortSignal): Promise<ImageInfo> {
    const docker = await this.engine.docker();
    if (!fs.existsSync(dockerfile)) {
      throw new ImageMissingError(image, `Image "${image}" is missing and its Dockerfile ${dockerfile} does not exist.`);
    }
    const context = path.dirname(dockerfile);
    this.log(`building image ${image} from ${dockerfile}`);
    const ctx = await packContext(context);
    const ms = this.opts.buildTimeoutMs ?? 30 * 60_000;
    let failure: string | undefined;
    await withDeadline(
      `building image ${image}`,
      ms,
      async (s) => {
        const stream = await docker.buildImage(Readable.from([ctx]), {
          t: image,
          dockerfile: path.basename(dockerfile),
          rm: true,
          forcerm: true,
          abortSignal: s,
        });
        await follow(docker, stream, (e) => {
          if (e.stream) for (const l of e.stream.split('\n')) if (l.trim()) this.log(l);
          if (e.error) failure = e.errorDetail?.message ?? e.error;
        });
      },
      signal,
    );
    if (failure) throw new ImageMissingError(image, `Image "${image}" is missing and building it from ${dockerfile} failed: ${failure}`);
    const built = await this.inspect(image, signal);
    if (!built) throw new ImageMissingError(image, `Image "${image}" was built from ${dockerfile} but is still not present.`);
    this.log(`built image ${image} (${built.id})`);
    return { ...built, source: 'built' };
  }

  private async pull(image: string, signal?: AbortSignal): Promise<ImageInfo> {
    const docker = await this.engine.docker();
    this.log(`image ${image} is not present locally; trying to pull it`);
    const ms = this.opts.pullTimeoutMs ?? 30 * 60_000;
    let failure: string | undefined;
    let lastLine = '';
    try {
      await withDeadline(
        `pulling image ${image}`,
        ms,
        async (s) => {
          const pull = docker.pull.bind(docker) as unknown as (tag: string, o: { abortSignal: AbortSignal }) => Promise<NodeJS.ReadableStream>;
          const stream = await pull(image, { abortSignal: s });
          await follow(docker, stream, (e) => {
            if (e.error) failure = e.errorDetail?.message ?? e.error;
            const line = [e.id, e.status, e.progress].filter(Boolean).join(' ');
            // Progress bars repeat many times a second; log a layer's line when its status word changes.
            const key = `${e.id ?? ''} ${e.status ?? ''}`;
            if (line && key !== lastLine) this.log(line);
            lastLine = key;
          });
        },
        signal,
      );
    } catch (e) {
      failure = errorText(e).trim();
    }
    if (!failure) {
      const pulled = await this.inspect(image, signal);
      if (pulled) return { ...pulled, source: 'pulled' };
      failure = 'the pull finished but the image is still not present';
    }
    throw new ImageMissingError(
      image,
      `Image "${image}" is not present locally, the task gives no Dockerfile to build it (environment.dockerfile), ` +
        `and pulling it failed: ${failure}. Build or load it (docker build -t ${image} ... / docker load), ` +
        'or for the offline base image run scripts/setup-docker.sh.',
    );
  }
}
