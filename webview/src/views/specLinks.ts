// The two-way link between specs and the request runs that state them: hovering either lights up the other.
// The regions are lit-html templates, so the link is carried by attributes the templates set (they survive a patch,
// and a region that is patched needs no re-registration): a request run has `data-states` (the JSON list of the
// specs it states), an element that stands for a spec has `data-link-spec` (its id).

/** The attributes a template puts on a run stating `specs` (JSON: spec ids may hold any character). */
export const statesAttr = (specs: readonly string[]): string => JSON.stringify(specs);

function statedBy(n: Element): readonly string[] | undefined {
  const raw = n.getAttribute('data-states');
  if (raw === null) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
  } catch {
    return undefined;
  }
}

export class SpecLinks {
  private lit: Element[] = [];

  constructor(private readonly root: ParentNode = document) {}

  /** The first run stating `specId`, to scroll to. */
  firstRun(specId: string): HTMLElement | undefined {
    for (const n of this.root.querySelectorAll<HTMLElement>('[data-states]')) if (statedBy(n)?.includes(specId)) return n;
    return undefined;
  }

  highlight(specIds: readonly string[]): void {
    this.clear();
    const want = new Set(specIds);
    for (const n of this.root.querySelectorAll('[data-states],[data-link-spec]')) {
      const spec = n.getAttribute('data-link-spec');
      const on = spec !== null ? want.has(spec) : (statedBy(n)?.some((s) => want.has(s)) ?? false);
      if (!on) continue;
      n.classList.add('hl');
      this.lit.push(n);
    }
  }

  clear(): void {
    for (const n of this.lit) n.classList.remove('hl');
    this.lit = [];
  }

  /** Hover anywhere in `container` over a run or a spec element highlights its partners. Call once per container. */
  bind(container: HTMLElement): void {
    container.addEventListener('mouseover', (e) => {
      const ids = idsAt(e.target);
      if (ids) this.highlight(ids);
    });
    container.addEventListener('mouseout', (e) => {
      if (idsAt(e.target) && !idsAt(e.relatedTarget)) this.clear();
    });
    container.addEventListener('focusin', (e) => {
      const ids = idsAt(e.target);
      if (ids) this.highlight(ids);
    });
  }
}

function idsAt(target: EventTarget | null): readonly string[] | undefined {
  let n = target instanceof Element ? target : null;
  while (n) {
    const run = statedBy(n);
    if (run) return run;
    const spec = n.getAttribute('data-link-spec');
    if (spec !== null) return [spec];
    n = n.parentElement;
  }
  return undefined;
}
