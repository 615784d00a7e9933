from configurator.core.rules.catalogue import main

raise SystemExit(main())
