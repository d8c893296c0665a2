/** The few locale conventions that change how Sheets reads typed input and shows numbers. */
export interface LocaleRules {
  decimal: string;
  group: string;
  /** Day before month in typed dates ("01/10/2026" is 1 October in pt_BR). */
  dayFirst: boolean;
  trueWord: string;
  falseWord: string;
}

const COMMA_DECIMAL = ['pt', 'es', 'de', 'fr', 'it', 'nl', 'ru', 'tr', 'id', 'da', 'sv', 'nb', 'fi', 'pl', 'cs'];

export function localeRules(locale: string): LocaleRules {
  const lang = locale.split(/[_-]/)[0].toLowerCase();
  const comma = COMMA_DECIMAL.includes(lang);
  const pt = lang === 'pt';
  return {
    decimal: comma ? ',' : '.',
    group: comma ? '.' : ',',
    dayFirst: locale !== 'en_US' && locale !== 'en',
    trueWord: pt ? 'VERDADEIRO' : 'TRUE',
    falseWord: pt ? 'FALSO' : 'FALSE',
  };
}
