import type { ChangeEventHandler, ReactNode } from "react";
import { ChoiceGroup, type ChoiceOption } from "./ChoiceGroup";
import type { LegendSize } from "./Fieldset";

export type CheckboxGroupProps = {
  name: string;
  id?: string;
  legend: ReactNode;
  legendSize?: LegendSize;
  isPageHeading?: boolean;
  options: ChoiceOption[];
  defaultValue?: readonly string[];
  hint?: ReactNode;
  error?: string | null;
  disabled?: boolean;
  inline?: boolean;
  form?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  className?: string;
};

/** Checkboxes in a fieldset, all with the same name; the first checkbox's id is the group's id. */
export function CheckboxGroup({ defaultValue = [], ...props }: CheckboxGroupProps) {
  return <ChoiceGroup type="checkbox" isChecked={(value) => defaultValue.includes(value)} {...props} />;
}
