// The trajectory search box: the pattern, regex and case toggles, the hit counter and next/previous buttons. Built
// once per task (an update does not touch it); the counter and the status patch their text in place.
import { el, setText } from '../dom';
import { button, textField, type TextField } from '../ui/controls';

export interface SearchBarHandlers {
  onInput(pattern: string): void;
  onToggle(option: 'regex' | 'caseSensitive', on: boolean): void;
  onNext(): void;
  onPrevious(): void;
}

export class SearchBar {
  readonly element: HTMLElement;
  readonly field: TextField;
  private readonly regex: HTMLButtonElement;
  private readonly caseSensitive: HTMLButtonElement;
  private readonly counter = el('span', { class: 'hit-counter', testid: 'hit-counter', attrs: { 'aria-live': 'polite' } });
  private readonly statusText = el('span', { class: 'search-status muted small', testid: 'search-status' });

  constructor(initial: { search: string; regex: boolean; caseSensitive: boolean }, h: SearchBarHandlers) {
    this.regex = toggle('.*', 'Use regular expression', 'search-regex', initial.regex, (on) => h.onToggle('regex', on));
    this.caseSensitive = toggle('Aa', 'Match case', 'search-case', initial.caseSensitive, (on) => h.onToggle('caseSensitive', on));
    this.field = textField({ placeholder: 'Search all steps of all attempts', value: initial.search, testid: 'search-box', after: [this.caseSensitive, this.regex], onInput: h.onInput });
    this.element = el(
      'div',
      { class: 'searchbar', testid: 'search' },
      this.field.element,
      this.counter,
      button('\u2191', h.onPrevious, { secondary: true, testid: 'prev-hit', title: 'Previous hit (Shift+F3)' }),
      button('\u2193', h.onNext, { secondary: true, testid: 'next-hit', title: 'Next hit (F3)' }),
      this.statusText,
    );
  }

  setCounter(text: string): void {
    setText(this.counter, text);
  }

  setStatus(text: string, error = false): void {
    setText(this.statusText, text);
    this.statusText.classList.toggle('error', error);
    this.field.setInvalid(error, text);
  }
}

function toggle(label: string, title: string, testid: string, on: boolean, onChange: (on: boolean) => void): HTMLButtonElement {
  const b = el('button', { class: 'toggle', text: label, title, testid, attrs: { 'aria-pressed': String(on), type: 'button' } });
  b.addEventListener('click', () => {
    const next = b.getAttribute('aria-pressed') !== 'true';
    b.setAttribute('aria-pressed', String(next));
    onChange(next);
  });
  return b;
}
