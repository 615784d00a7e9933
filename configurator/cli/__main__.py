import sys

from configurator.cli.entry import main

sys.exit(main())
