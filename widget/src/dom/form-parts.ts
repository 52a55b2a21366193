/** What each rendered form gives the boot code: the element, when its frames are ready, how to focus a field. */
export interface FormParts {
  readonly form: HTMLFormElement;
  /** Called once the form is in the document: loads its frames. */
  mount(): void;
  readonly ready: Promise<void>;
  /** Focuses the named field (`card.number` …) when this form has it; false when it has not. */
  focus(name: string): boolean;
  /** The brands this form pays with (for the logos style's buttons). */
  readonly brands: readonly string[];
}
