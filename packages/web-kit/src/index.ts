/** The web apps' shared kit (see package.json). Pure helpers first, then React pieces. */
export { readAmount, plainDecimal, typedAmount, groupDigits, showMoney, type AmountProblem, type AmountReading } from './money.ts';
export { formatDate, formatDateTime, formatMoney, formatTime, isFiat, localDigits } from './format.ts';
export {
  describeError,
  fill,
  LANGS,
  pickLang,
  translator,
  wordFor,
  type Catalogues,
  type Params,
  type ShownError,
  type Translate,
} from './i18n.ts';
export { savedLang, saveLang } from './lang-choice.ts';
export { createRouter, type AppRouter, type Location } from './router.tsx';
export { pathBelow } from './path.ts';
export { WebKitContext, useActionKey, useWebKit, type WebKit } from './kit-context.tsx';
export { Amount, MoneyText } from './Amount.tsx';
export { StateBadge } from './StateBadge.tsx';
export { ErrorBox } from './ErrorBox.tsx';
export { Loading } from './Loading.tsx';
export { ReadAt } from './ReadAt.tsx';
export { Field, SelectField, type FieldProps } from './Field.tsx';
export { DataTable, type Column } from './DataTable.tsx';
export { LanguageSwitch } from './LanguageSwitch.tsx';
export { SignIn, type SignInBody, type SignInTexts } from './SignIn.tsx';
export { ForgotPassword, forgotPasswordLabel, ResetPassword } from './PasswordReset.tsx';
export { ChangePassword, type ChangePasswordBody, type ChangePasswordTexts } from './ChangePassword.tsx';
export { QrCode } from './QrCode.tsx';
export { RecoveryCodes, TotpEnrolForm, useTotpEnrolment, type TotpTexts } from './totp.tsx';
export { downloadFile } from './download.ts';
export { ValuationTable, type ValuedBalance } from './ValuationTable.tsx';
export { StatementDownload, type StatementFormat } from './StatementDownload.tsx';
