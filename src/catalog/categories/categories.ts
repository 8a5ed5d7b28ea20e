// The ten top-level tool categories: ids, menu labels, and the descriptions a tool's words are
// scored against (category-scores.ts). The descriptions are written from general knowledge of
// what tools in each area do, never from a benchmark catalog (docs/menu.md, "How categories are
// assigned"). Product names are written in lower case ("github", not "GitHub", which the
// tokenizer splits into "git hub"). Words that describe any tool (get, list, create, content,
// access) are left out: they are dropped from tools' text too (GENERIC_WORDS). A few common
// Chinese words per category let Chinese descriptions match (CJK text is indexed as bigrams).

/** Each category: a one-line label for menus and a paragraph of the words its tools use. */
export const CATEGORIES = {
  code: {
    label: 'Code and repositories',
    description: `Source code, software development and repositories, programming, developers,
      engineering. git, repository, repo, commits, branches, tags, pull requests, issues, merge,
      rebase, code review, diffs, patches, blame, github, gitlab, bitbucket, gists, forks, stars.
      Code search, code analysis, lint, linter, static analysis, refactor, compile, compiler,
      build, debug, debugger, breakpoints, unit tests, test coverage, bugs, stack traces,
      exceptions, errors, logs of a program. Packages, libraries, dependencies, package manager,
      npm, pypi, maven, gradle, cargo, crates, versions, semver, changelogs, releases of a library,
      developer documentation, API reference, SDK, frameworks, UI components, design system,
      react, vue, angular, svelte, nextjs, tailwind, shadcn, css, typescript, javascript, python,
      java, rust, golang, kotlin, swift, ruby, php, csharp, snippets, functions, classes, methods,
      modules, imports, syntax, AST, regex, code generation, code completion, scaffold, boilerplate,
      IDE, vscode, editor, language server, notebook, jupyter, playground, sandbox, interpreter.
      代码 编程 仓库 开发者 组件 函数`,
  },
  files: {
    label: 'Files and text',
    description: `Files, folders and text files. File system, local files, directories,
      subdirectories, paths, folder contents, file tree, file search, glob, file size, permissions,
      metadata, timestamps, symlinks. Upload and download files, attachments, cloud storage,
      drive, dropbox, onedrive, box, buckets, blobs, shared folders. Text files, lines, line
      numbers, encoding, UTF-8, text editing, editor buffers, find and replace, diff, compare
      texts, word count, characters, letters, strings, substrings, split, join, trim, uppercase,
      lowercase, compress, zip, unzip, tar, archive, extract, checksum. File formats, convert a
      file, CSV, JSON, YAML, XML, markdown, plain text, logs, PDF text extraction, OCR, read a
      PDF, images on disk, audio files, video files, media files. 文件 目录 文件夹 文本 字符`,
  },
  web: {
    label: 'Web, browsing and search',
    description: `The web and the internet: search online and browse websites. Web search,
      search engine, google, bing, duckduckgo, brave, tavily, exa, searxng, snippets, news,
      headlines, articles, blogs, magazines, press. Fetch a URL, web page, webpage, HTML, scrape,
      scraper, crawl, crawler, extract links, sitemap, RSS feeds, proxy. Browser automation:
      navigate, click, hover, fill forms, screenshots, playwright, puppeteer, selenium, chrome,
      headless browser, tabs, cookies, DOM, selectors. Online knowledge and media: wikipedia,
      encyclopedia, research papers, arxiv, pubmed, scholarly literature, academic publications,
      citations, journals, youtube, videos, podcasts, trends, trending topics, hot topics,
      Hacker News, SEO, keywords ranking, backlinks, websites, web archive.
      网页 搜索 浏览器 新闻 论文 网站 文章`,
  },
  documents: {
    label: 'Documents and generated content',
    description: `Documents and generated content. Generate and format documents: reports,
      PDF, word, docx, powerpoint, pptx, slides, presentations, decks, templates, letters,
      invoices, resumes, contracts drafts, headings, paragraphs, layout, fonts, styles, pages of a
      document, table of contents, footnotes. Markdown to PDF, HTML to PDF, document conversion,
      export, print. Charts, graphs, plots, bar chart, pie chart, line chart, funnel, histogram,
      diagrams, flowcharts, mind maps, mermaid, visualizations, infographics, whiteboard. Images,
      graphic design, canva, figma, posters, banners, logos, icons, illustrations, photo editing,
      resize, crop, watermark, render, SVG, thumbnails, video editing, subtitles, latex,
      typesetting, ebooks. 文档 幻灯片 演示 图表 报告 思维导图 图片 设计`,
  },
  data: {
    label: 'Data, databases and analysis',
    description: `Data, databases and analysis. Databases, SQL, tables, rows, columns, schemas,
      records, indexes, migrations, transactions, postgres, postgresql, mysql, sqlite, mongodb,
      redis, elasticsearch, supabase, firebase, firestore, bigquery, snowflake, dynamodb,
      spreadsheets, excel, sheets, airtable, datasets, data warehouse. Data processing, ETL,
      transform, aggregate, pandas, dataframes, statistics, statistical, correlation, regression,
      mean, median, variance, metrics, analytics, dashboards, KPI, business intelligence, powerbi,
      tableau, timeseries, forecasting numbers. Finance and markets: stocks, shares,
      tickers, quotes, OHLCV, candles, dividends, earnings, balance sheets, income statements,
      cash flow, financial statements, valuation, analysts, SEC filings, companies,
      fundamentals, ETF, funds, bonds, options chain, portfolio, trading, brokers, currencies,
      forex, exchange rates, cryptocurrency, crypto, tokens, coins, blockchain, wallets, onchain,
      DeFi, liquidity pools, swaps, staking, NFT, ethereum, bitcoin, solana, smart contracts,
      gas fees, payments, invoices paid, refunds. Science and health records: genes, proteins,
      variants, drugs, diseases, clinical trials, chemistry, compounds. Government statistics, open datasets, census, economic indicators, GDP,
      inflation, registries, catalogs of records, collections. 数据 数据库 股票 分析 金融 统计 表格`,
  },
  infra: {
    label: 'Infrastructure and DevOps',
    description: `Infrastructure, cloud and devops. Servers, hosting, deploy, deployment,
      release, rollback, CI/CD pipelines, workflows, jenkins, builds. Containers, docker,
      kubernetes, pods, clusters, nodes, namespaces, helm. Cloud: aws, azure, gcp, ec2, lambda,
      cloudflare, vercel, netlify, heroku, workers, serverless, regions, billing of cloud.
      Virtual machines, VMs, instances, networking, DNS, domains, TLD, registrar, WHOIS, IP,
      subnets, load balancers, CDN, ports, SSH, shell, terminal, command line, bash, processes,
      operating system, desktop, system settings, configuration, environment variables. Monitoring,
      logs, observability, alerts, incidents, on-call, uptime, status pages, prometheus, grafana,
      datadog, sentry, terraform, IaC, ansible, queues, kafka, message brokers, caches, backups,
      storage volumes, databases hosting, API gateway, webhooks. 服务器 部署 容器 云 运维`,
  },
  ai: {
    label: 'AI and machine learning',
    description: `Artificial intelligence and machine learning. AI models, LLM, large language
      models, GPT, openai, claude, anthropic, gemini, llama, mistral, ollama, huggingface, prompts,
      prompt engineering, completions, chat models, embeddings, vectors, vector database,
      semantic search, RAG, fine tuning, training, inference, neural networks, deep learning,
      classification, predictions, computer vision, object detection, OCR models, speech
      recognition, text to speech, transcription, image generation, stable diffusion, generative
      AI. Agents, multi-agent, orchestration, reasoning, thinking, thoughts, chain of thought,
      problem solving, brainstorming, mental models, decision making, planning, reflection,
      critique, memory, remember, recall, knowledge graph, knowledge base, entities, relations,
      observations, model evaluation, benchmarks, experiments, traces, LLM observability.
      人工智能 模型 大模型 智能体 推理 记忆`,
  },
  security: {
    label: 'Security and compliance',
    description: `Security and compliance. Vulnerabilities, CVE, exploits, security scanning,
      scanner, penetration testing, pentest, malware, virus, ransomware, threat intelligence,
      indicators of compromise, phishing, spam detection, firewall, WAF, intrusion detection,
      SIEM, SOC, incidents response, forensics, audit, audit logs, compliance, GDPR, HIPAA, PCI,
      ISO 27001, policies, controls, risk assessment, risks, RBAC, permissions, authentication, login, MFA, OAuth, SSO, passwords, secrets, credentials, encryption, decrypt,
      hashes, certificates, TLS, SSL, identity verification, KYC, fraud, moderation, guardrails,
      content safety, toxicity, prompt injection, jailbreak, privacy, PII redaction, anonymize.
      安全 漏洞 合规 审计 加密 风险`,
  },
  communication: {
    label: 'Communication and collaboration',
    description: `Communication and collaboration. Messages, messaging, chat, send a message,
      reply, react, channels, threads, direct messages, slack, discord, teams, telegram,
      whatsapp, signal, wechat, SMS, phone, voice calls, notifications. Email, inbox, gmail,
      outlook, mail, drafts, newsletters, mailing lists, contacts, address book. Social media:
      posts, tweets, twitter, linkedin, facebook, instagram, tiktok, reddit, mastodon, bluesky,
      farcaster, followers, profiles, comments, likes, mentions, hashtags, forums, communities. Calendars, events, meetings, appointments, zoom, invitations, schedule a meeting.
      Collaboration and project management: projects, tasks, subtasks, to-dos, todo, reminders,
      issue tracking, tickets, jira, linear, asana, trello, todoist, clickup, monday, notion,
      confluence, boards, kanban, sprints, milestones, assignees, timesheets, workspaces,
      members, CRM, leads, deals, customers support, helpdesk, marketing campaigns.
      消息 邮件 聊天 社交 日历 任务 会议`,
  },
  utilities: {
    label: 'Utilities and helpers',
    description: `Utilities and everyday helpers. Time, date, time zones, clock, timers,
      stopwatch, calendar conversion, lunar calendar, holidays, calculator, math, mathematical expressions, arithmetic,
      equations, unit conversion, random, dice, coin flip, UUID, QR, weather, forecast,
      temperature, rain, wind, air quality, surf, tides, earthquakes, maps, locations, places, nearby,
      geocoding, addresses, directions, routes, navigation, distance, travel, trips, flights,
      airports, airlines, hotels, booking, accommodation, trains, railway, subway, metro, bus,
      transit, tourism, attractions, restaurants, recipes, cooking, food, nutrition, shopping,
      products prices, deals, coupons, jobs, careers, sports, football, soccer, basketball,
      leagues, standings, matches, esports, games, gaming, players, chess, board games, cards, puzzles, trivia,
      jokes, memes, quotes, horoscope, astrology, zodiac, entertainment, movies, TV shows, music,
      songs, books, anime, pets, health tips, fitness, translation, translate, languages,
      definitions, greetings, hello, echo, ping, health check.
      时间 天气 翻译 计算 随机 菜谱 旅游 地图 游戏 火车 地铁 酒店 航班 音乐 电影 星座`,
  },
} as const;

/** A category id. */
export type CategoryId = keyof typeof CATEGORIES;

/** Every category id, in menu order. */
export const CATEGORY_IDS = Object.keys(CATEGORIES) as CategoryId[];

/** The one-line menu label of a category. */
export function categoryLabel(id: CategoryId): string {
  return CATEGORIES[id].label;
}

/** Whether a string is a category id. */
export function isCategoryId(value: string): value is CategoryId {
  return Object.hasOwn(CATEGORIES, value);
}
