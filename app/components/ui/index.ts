export { AlertBanner, type AlertBannerProps, type AlertVariant } from "./AlertBanner";
export {
  Button,
  ButtonGroup,
  LinkButton,
  type ButtonGroupProps,
  type ButtonProps,
  type ButtonVariant,
  type LinkButtonProps,
} from "./Button";
export { Card, type CardProps } from "./Card";
export { CheckboxGroup, type CheckboxGroupProps } from "./CheckboxGroup";
export type { ChoiceOption } from "./ChoiceGroup";
export { Details, type DetailsProps } from "./Details";
export { ErrorSummary, type ErrorSummaryItem, type ErrorSummaryProps } from "./ErrorSummary";
export { FieldError, type FieldErrorProps } from "./FieldError";
export { Fieldset, type FieldsetProps, type LegendSize } from "./Fieldset";
export { FlashRegion, type FlashMessage, type FlashRegionProps } from "./FlashRegion";
export { Header, type HeaderProps } from "./Header";
export { Hint, Label, type LabelProps } from "./Label";
export { PageHeading, type PageHeadingProps } from "./PageHeading";
// Pagination, Progress and Dialog are imported from their own files ("~/components/ui/Pagination"):
// only a few pages need them, and through this index they would load with every page (ADR 0012).
export { RadioGroup, type RadioGroupProps } from "./RadioGroup";
export { Select, type SelectOption, type SelectProps } from "./Select";
export { SideMenu, type SideMenuGroup, type SideMenuItem, type SideMenuProps } from "./SideMenu";
export { SkipLink, type SkipLinkProps } from "./SkipLink";
export { SummaryList, type SummaryListProps, type SummaryListRow } from "./SummaryList";
export { Table, type TableColumn, type TableProps, type TableRow } from "./Table";
export { Tag, Badge, type BadgeProps, type TagProps, type TagVariant } from "./Tag";
export { TextArea, type TextAreaProps } from "./TextArea";
export { TextField, type InputWidth, type TextFieldProps } from "./TextField";
export { VisuallyHidden, type VisuallyHiddenProps } from "./VisuallyHidden";
