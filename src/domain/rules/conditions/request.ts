import { testWithin } from '../pattern.js';
import { ABSENT, matching, operatorOf, regexOf, setTest, splitList, type ConditionSpec } from './shared.js';

export const anythingCondition: ConditionSpec = {
  type: 'anything',
  label: 'Anything',
  input: '—',
  operators: [],
  compile() {
    return () => ({ result: true, observed: null });
  },
};

export const urlCondition: ConditionSpec = {
  type: 'url',
  label: 'Page URL',
  input: 'url',
  operators: [
    { code: 'contains', label: 'contains', value: 'text' },
    { code: 'does_not_contain', label: 'does not contain', value: 'text' },
    { code: 'equals', label: 'is exactly', value: 'text' },
    { code: 'matches_regex', label: 'matches the pattern', value: 'text_or_regex' },
  ],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    if (!op) return null;
    if (op.code === 'matches_regex') {
      const regex = regexOf(condition.value, `${path}.value`, problems);
      if (!regex) return null;
      return matching(regex, (request, _world, work) =>
        request.url === null
          ? ABSENT
          : { result: testWithin(regex, request.url, work) === true, observed: request.url },
      );
    }
    const needle = condition.value ?? '';
    if (needle === '') {
      problems.push({ path: `${path}.value`, message: 'needs the text to look for' });
      return null;
    }
    return (request) => {
      if (request.url === null) return ABSENT;
      const url = request.url;
      const result =
        op.code === 'contains'
          ? url.includes(needle)
          : op.code === 'does_not_contain'
            ? !url.includes(needle)
            : url === needle;
      return { result, observed: url };
    };
  },
};

export const countryCondition: ConditionSpec = {
  type: 'country',
  label: 'Country',
  input: 'country_code',
  operators: [
    { code: 'contains_any', label: 'is one of', value: 'country_list' },
    { code: 'does_not_contain_any', label: 'is none of', value: 'country_list' },
  ],
  compile(condition, path, problems) {
    const op = operatorOf(this, condition, path, problems);
    const codes = splitList(condition.value).map((c) => c.toUpperCase());
    const bad = codes.find((c) => !/^[A-Z]{2}$/.test(c));
    if (codes.length === 0 || bad !== undefined)
      problems.push({
        path: `${path}.value`,
        message: bad ? `"${bad}" is not a two-letter country code` : 'needs a comma-separated list of country codes',
      });
    if (!op || codes.length === 0 || bad !== undefined) return null;
    return (request) =>
      request.countryCode === null
        ? ABSENT
        : { result: setTest(op.code, codes, (c) => c === request.countryCode), observed: request.countryCode };
  },
};
