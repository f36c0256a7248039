// The two-way link between specs and the request runs that state them: hovering either lights up the other.
export class SpecLinks {
  private readonly runs = new Map<string, Set<HTMLElement>>();
  private readonly runSpecs = new WeakMap<Element, readonly string[]>();
  private readonly specEls = new Map<string, Set<HTMLElement>>();
  private readonly elSpec = new WeakMap<Element, string>();
  private lit: HTMLElement[] = [];

  resetRuns(): void {
    this.runs.clear();
  }

  addRun(node: HTMLElement, specs: readonly string[]): void {
    this.runSpecs.set(node, specs);
    for (const s of specs) {
      let set = this.runs.get(s);
      if (!set) this.runs.set(s, (set = new Set()));
      set.add(node);
    }
  }

  addSpec(node: HTMLElement, specId: string): void {
    this.elSpec.set(node, specId);
    let set = this.specEls.get(specId);
    if (!set) this.specEls.set(specId, (set = new Set()));
    set.add(node);
  }

  /** The first run stating `specId`, to scroll to. */
  firstRun(specId: string): HTMLElement | undefined {
    for (const r of this.runs.get(specId) ?? []) if (r.isConnected) return r;
    return undefined;
  }

  highlight(specIds: readonly string[]): void {
    this.clear();
    for (const id of specIds) {
      for (const set of [this.runs.get(id), this.specEls.get(id)]) {
        if (!set) continue;
        for (const n of set) {
          if (!n.isConnected) {
            set.delete(n);
            continue;
          }
          n.classList.add('hl');
          this.lit.push(n);
        }
      }
    }
  }

  clear(): void {
    for (const n of this.lit) n.classList.remove('hl');
    this.lit = [];
  }

  /** Hover anywhere in `container` over a run or a spec element highlights its partners. */
  bind(container: HTMLElement): void {
    container.addEventListener('mouseover', (e) => {
      const ids = this.idsAt(e.target);
      if (ids) this.highlight(ids);
    });
    container.addEventListener('mouseout', (e) => {
      if (this.idsAt(e.target) && !this.idsAt(e.relatedTarget)) this.clear();
    });
    container.addEventListener('focusin', (e) => {
      const ids = this.idsAt(e.target);
      if (ids) this.highlight(ids);
    });
  }

  private idsAt(target: EventTarget | null): readonly string[] | undefined {
    let n = target instanceof Element ? target : null;
    while (n) {
      const run = this.runSpecs.get(n);
      if (run) return run;
      const spec = this.elSpec.get(n);
      if (spec !== undefined) return [spec];
      n = n.parentElement;
    }
    return undefined;
  }
}
