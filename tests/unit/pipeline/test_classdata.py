"""The driver JVM's class-data archive: written once, adopted, used."""

import os

import fixtures
import testtools

from zaqar_delay.pipeline import classdata


class ClassDataTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.cache = self.useFixture(fixtures.TempDir()).path
        home = self.useFixture(fixtures.TempDir()).path
        os.makedirs(os.path.join(home, 'bin'))
        self.java = os.path.join(home, 'bin', 'java')
        with open(self.java, 'w') as f:
            f.write('#!/bin/sh\n')
        self.useFixture(fixtures.EnvironmentVariable('JAVA_HOME', home))
        self.useFixture(fixtures.EnvironmentVariable(classdata.ENV))
        self.final = classdata.archive_path(self.cache)

    def written(self, name, age, now=1000.0):
        with open(name, 'w') as f:
            f.write('archive')
        os.utime(name, (now - age, now - age))

    def test_the_first_job_writes_an_archive_of_its_own(self):
        options = classdata.java_options(self.cache, now=1000.0)
        self.assertIn('-XX:ArchiveClassesAtExit=%s.%d.tmp' % (
            self.final, os.getpid()), options)
        self.assertIn('-Xshare:auto', options)

    def test_an_archive_being_written_is_neither_used_nor_written_again(self):
        self.written(self.final + '.1.tmp', age=5)
        self.assertEqual('', classdata.java_options(self.cache, now=1000.0))
        self.assertFalse(os.path.exists(self.final))

    def test_a_finished_archive_is_adopted_and_used(self):
        self.written(self.final + '.1.tmp', age=classdata.SETTLE + 1)
        self.written(self.final + '.2.tmp', age=classdata.SETTLE + 1)
        options = classdata.java_options(self.cache, now=1000.0)
        self.assertEqual('-XX:SharedArchiveFile=%s %s' % (
            self.final, classdata.QUIET), options)
        self.assertEqual([os.path.basename(self.final)],
                         os.listdir(self.cache))

    def test_another_runtime_gets_another_archive(self):
        os.utime(self.java, (1, 1))
        self.assertNotEqual(self.final, classdata.archive_path(self.cache))

    def test_it_can_be_turned_off(self):
        self.useFixture(fixtures.EnvironmentVariable(classdata.ENV, '0'))
        self.assertEqual('', classdata.java_options(self.cache))
