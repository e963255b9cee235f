"""The Grafana dashboard in etc/grafana: it loads, and every query
names metric families zaqar-delay exports."""

import json
import os
import re

import testtools

from zaqar_delay.metrics import families

DASHBOARD = os.path.join(os.path.dirname(__file__), '..', '..', '..',
                         'etc', 'grafana', 'zaqar-delay.json')
METRIC = re.compile(r'\bzaqar_delay_\w+')


class DashboardTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        with open(DASHBOARD) as source:
            self.dashboard = json.load(source)

    def test_every_panel_query_names_exported_families_only(self):
        panels = self.dashboard['panels']
        self.assertGreaterEqual(len(panels), 8)
        for panel in panels:
            self.assertTrue(panel['targets'], panel['title'])
            for target in panel['targets']:
                named = set(METRIC.findall(target['expr']))
                self.assertTrue(named, (panel['title'], target['expr']))
                self.assertEqual(set(), named - families.EXPOSED,
                                 panel['title'])

    def test_template_variables_query_exported_families(self):
        for variable in self.dashboard['templating']['list']:
            if variable['type'] == 'query':
                named = set(METRIC.findall(variable['query']['query']))
                self.assertTrue(named, variable['name'])
                self.assertEqual(set(), named - families.EXPOSED)

    def test_importable_as_is(self):
        # No datasource uid of one Grafana: the datasource variable.
        self.assertEqual('datasource',
                         self.dashboard['templating']['list'][0]['type'])
        ids = [panel['id'] for panel in self.dashboard['panels']]
        self.assertEqual(len(ids), len(set(ids)))
        for panel in self.dashboard['panels']:
            self.assertEqual('${datasource}', panel['datasource']['uid'])
            self.assertEqual({'x', 'y', 'w', 'h'}, set(panel['gridPos']))
        self.assertNotIn('id', self.dashboard)

    def test_the_families_the_dashboard_shows_are_the_collectors(self):
        shown = set()
        for panel in self.dashboard['panels']:
            for target in panel['targets']:
                shown |= set(METRIC.findall(target['expr']))
        for name in (families.QUEUE_MESSAGES, families.QUEUE_OLDEST_DUE_AGE,
                     families.PUSHES_FAILED + '_total',
                     families.PUSH_DELIVERY + '_bucket',
                     families.PUSH_LATENESS + '_bucket',
                     families.EARLY + '_total',
                     families.TICKS_POSTED + '_total',
                     families.TICKS_MISSED + '_total',
                     families.TICK_LATENESS + '_bucket',
                     families.CLAIM_LATENESS + '_bucket',
                     families.EARLY_CLAIMS + '_total',
                     families.RETRIES_BACKOFF + '_total',
                     families.DEAD_LETTERED + '_total'):
            self.assertIn(name, shown)

    def test_quantiles_are_panels_of_their_own_in_seconds(self):
        # A quantile shares no panel (and axis) with rates or counts.
        quantiles = set()
        for panel in self.dashboard['panels']:
            exprs = [target['expr'] for target in panel['targets']]
            if any('histogram_quantile' in expr for expr in exprs):
                self.assertTrue(all('histogram_quantile' in expr
                                    for expr in exprs), panel['title'])
                self.assertEqual('s', panel['fieldConfig']['defaults'][
                    'unit'], panel['title'])
                for expr in exprs:
                    quantiles |= set(METRIC.findall(expr))
        self.assertIn(families.TICK_LATENESS + '_bucket', quantiles)
