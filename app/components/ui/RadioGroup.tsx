import type { ChangeEventHandler, ReactNode } from "react";
import { ChoiceGroup, type ChoiceOption } from "./ChoiceGroup";
import type { LegendSize } from "./Fieldset";

export type RadioGroupProps = {
  name: string;
  id?: string;
  legend: ReactNode;
  legendSize?: LegendSize;
  isPageHeading?: boolean;
  options: ChoiceOption[];
  defaultValue?: string | null;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  disabled?: boolean;
  inline?: boolean;
  form?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  className?: string;
};

/** Radios in a fieldset; the first radio's id is the group's id. */
export function RadioGroup({ defaultValue, ...props }: RadioGroupProps) {
  return <ChoiceGroup type="radio" isChecked={(value) => value === defaultValue} {...props} />;
}
