/** Brazilian identifiers and vocabulary for seeded data. */
import type { Rng } from './rng.js';

export function cpfCheckDigits(base9: string): string {
  let d = base9;
  for (const start of [10, 11]) {
    let sum = 0;
    for (let i = 0; i < d.length; i++) sum += Number(d[i]) * (start - i);
    const r = sum % 11;
    d += r < 2 ? '0' : String(11 - r);
  }
  return d.slice(9);
}

export function cnpjCheckDigits(base12: string): string {
  const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const w2 = [6, ...w1];
  let d = base12;
  for (const w of [w1, w2]) {
    let sum = 0;
    for (let i = 0; i < w.length; i++) sum += Number(d[i]) * w[i];
    const r = sum % 11;
    d += r < 2 ? '0' : String(11 - r);
  }
  return d.slice(12);
}

export function isValidCpf(cpf: string): boolean {
  return /^\d{11}$/.test(cpf) && !/^(\d)\1{10}$/.test(cpf) && cpfCheckDigits(cpf.slice(0, 9)) === cpf.slice(9);
}

export function isValidCnpj(cnpj: string): boolean {
  return /^\d{14}$/.test(cnpj) && !/^(\d)\1{13}$/.test(cnpj) && cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

/** About one in six starts with 0, so a client that turns them into numbers loses digits. */
export function makeCpf(rng: Rng): string {
  for (;;) {
    const base = (rng.chance(0.17) ? '0' : String(rng.int(1, 9))) + rng.digits(8);
    if (!/^(\d)\1{8}$/.test(base)) return base + cpfCheckDigits(base);
  }
}

export function makeCnpj(rng: Rng): string {
  const branch = rng.chance(0.85) ? '0001' : '000' + rng.int(2, 9);
  const base = (rng.chance(0.17) ? '0' : String(rng.int(1, 9))) + rng.digits(7) + branch;
  return base + cnpjCheckDigits(base);
}

export interface Place {
  uf: string;
  cidade: string;
  ddd: string;
  cepPrefix: [number, number];
}
export const PLACES: readonly Place[] = [
  { uf: 'SP', cidade: 'São Paulo', ddd: '11', cepPrefix: [1000, 5999] },
  { uf: 'SP', cidade: 'Ribeirão Preto', ddd: '16', cepPrefix: [14000, 14114] },
  { uf: 'SP', cidade: 'Jundiaí', ddd: '11', cepPrefix: [13200, 13219] },
  { uf: 'SP', cidade: 'Osasco', ddd: '11', cepPrefix: [6000, 6299] },
  { uf: 'RJ', cidade: 'Niterói', ddd: '21', cepPrefix: [24000, 24399] },
  { uf: 'MG', cidade: 'Belo Horizonte', ddd: '31', cepPrefix: [30000, 31999] },
  { uf: 'PR', cidade: 'Maringá', ddd: '44', cepPrefix: [87000, 87099] },
  { uf: 'SC', cidade: 'Florianópolis', ddd: '48', cepPrefix: [88000, 88099] },
  { uf: 'RS', cidade: 'Caxias do Sul', ddd: '54', cepPrefix: [95000, 95124] },
  { uf: 'BA', cidade: 'Salvador', ddd: '71', cepPrefix: [40000, 42599] },
  { uf: 'PA', cidade: 'Belém', ddd: '91', cepPrefix: [66000, 66999] },
  { uf: 'GO', cidade: 'Goiânia', ddd: '62', cepPrefix: [74000, 74899] },
  { uf: 'AL', cidade: 'Maceió', ddd: '82', cepPrefix: [57000, 57099] },
  { uf: 'PE', cidade: 'Jaboatão dos Guararapes', ddd: '81', cepPrefix: [54000, 54499] },
];

export function makeCep(rng: Rng, place: Place): string {
  const prefix = rng.int(place.cepPrefix[0], place.cepPrefix[1]);
  return `${String(prefix).padStart(5, '0')}-${rng.digits(3)}`;
}

export const FIRST_NAMES = [
  'João',
  'José',
  'Antônio',
  'Márcia',
  'Conceição',
  'Luíza',
  'Sebastião',
  'Thaís',
  'Inês',
  'Cecília',
  'Fábio',
  'Vinícius',
  'Letícia',
  'Mônica',
  'Ângela',
  'Lúcio',
  'Débora',
  'Júlia',
  'Caio',
  'Raí',
  'Ana',
  'Paulo',
  'Beatriz',
  'Rogério',
  'Glória',
  'Cláudio',
  'Patrícia',
  'Célia',
  'Otávio',
  'Noêmia',
];
export const SURNAMES = [
  'da Silva',
  'Gonçalves',
  'Simões',
  'Araújo',
  'Magalhães',
  'Brandão',
  'Falcão',
  'Guimarães',
  'Assunção',
  'Conceição',
  "D'Ávila",
  'Câmara',
  'Loureiro',
  'Pereira',
  'Nóbrega',
  "Sant'Anna",
  'Corrêa',
  'Gusmão',
  'Peçanha',
  'Lacerda',
];
export const COMPANY_WORDS = [
  'Padaria Pão de Açúcar',
  'Auto Peças São João',
  'Clínica Saúde & Vida',
  'Mercadinho Boa Esperança',
  'Construtora Ipê',
  'Ótica Visão',
  'Escola Aprender',
  'Farmácia Popular do Bairro',
  'Transportes Veloz',
  'Açaí da Praça',
  'Estúdio Pilates Equilíbrio',
  'Lavanderia Limpeza Já',
  'Pet Shop Amigo Fiel',
  'Restaurante Sabor Mineiro',
  'Tecnologia Núcleo',
  'Academia Corpo São',
  'Imobiliária Lar Doce Lar',
  'Gráfica Impressão Ágil',
  'Marcenaria Cedro',
  'Consultório Odonto Sorriso',
];
/** Leading characters a spreadsheet would read as a formula or strip. */
export const FORMULA_PREFIXES = ['=', '+', '-', '@', "'"];
export const LEGAL_SUFFIXES = ['Ltda', 'ME', 'EIRELI', 'S.A.', 'Ltda - EPP', 'S/S'];
export const BAIRROS = ['Centro', 'Jardim América', 'Vila Mariana', 'Boa Viagem', 'Água Verde', 'Savassi', 'Trindade', 'São Cristóvão', 'Itaim Bibi', 'Pituba'];
export const LOGRADOUROS = [
  'Rua das Acácias',
  'Avenida Paulista',
  'Rua XV de Novembro',
  'Travessa São Bento',
  'Alameda Santos',
  'Rua Dom Pedro II',
  'Avenida Getúlio Vargas',
  'Rua Marechal Deodoro',
];
export const BANDEIRAS = ['VISA', 'MASTERCARD', 'ELO', 'AMEX', 'HIPERCARD'];
export const BANKS = ['Banco do Brasil', 'Itaú', 'Bradesco', 'Caixa', 'Santander', 'Sicoob', 'Nubank', 'Inter'];

export function personName(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)}${rng.chance(0.4) ? ' ' + rng.pick(SURNAMES) : ''}`;
}

/** Sometimes prefixes a formula-like character, so spreadsheet writers must neutralise it. */
export function maybeFormula(rng: Rng, text: string, p = 0.05): string {
  return rng.chance(p) ? rng.pick(FORMULA_PREFIXES) + text : text;
}

export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '');
}

/** 47-digit boleto line, in its usual printed grouping. */
export function linhaDigitavel(rng: Rng, valorCents: number, vencDay: number): string {
  const bank = rng.pick(['001', '237', '341', '104', '033', '756']);
  const fator = String(1000 + ((vencDay + 9000) % 9000)).padStart(4, '0');
  const valor = String(valorCents).padStart(10, '0');
  return `${bank}9${rng.digits(1)}.${rng.digits(5)} ${rng.digits(5)}.${rng.digits(6)} ${rng.digits(5)}.${rng.digits(6)} ${rng.digits(1)} ${fator}${valor}`;
}
